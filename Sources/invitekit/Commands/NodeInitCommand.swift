import ArgumentParser
import Foundation
import InviteKit

/// `invitekit init`: creates a node's home (identity key file 0600, database, default relays).
/// `--force-new-identity` first sets an old or half-present identity aside (docs/storage.md §5).
struct NodeInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a node's home: an identity (new, or --import an nsec read from stdin) and default relays.")
    @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).", transform: PathOption.parse) var home: String?
    @Option(name: .customLong("relay"), help: "A default relay, ws:// or wss:// (repeatable).", transform: RelayURLOption.parse) var relays: [String] = []
    @Flag(name: .customLong("import"), help: "Read the secret key (nsec1… or hex) from stdin; never from the command line.") var importKey = false
    @Flag(name: .customLong("force-new-identity"),
          help: "Move an existing identity.key and database aside (renamed *.replaced-<time>, nothing deleted) and create a new identity.")
    var forceNewIdentity = false
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try runReportingErrors {
            let home = StoreHome.resolve(home)
            var secret: SecureBytes?
            if importKey {
                var input = try StdIO.readAll(limit: 4096)
                defer { for i in input.indices { input[i] = 0 } }
                let text = String(decoding: input, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                secret = try NostrKeys.parseSecretKey(text).rawRepresentation
            }
            let (publicKey, setAside) = try NodeHome(home).createIdentity(relays: relays, importing: secret, replacingIdentity: forceNewIdentity)
            var o = JSONOutput()
            o.add("home", home.directory)
            o.add("npub", NIP19.npub(publicKey))
            o.add("relays", json: .array(relays.map { .string($0) }))
            if !setAside.isEmpty { o.add("set_aside", json: .array(setAside.map { .string($0) })) }
            if json { StdIO.printLine(o.string) } else {
                for path in setAside { StdIO.printLine("moved   \(TerminalText.escape(path))") }
                StdIO.printLine("created \(TerminalText.escape(home.directory))")
                StdIO.printLine("npub    \(NIP19.npub(publicKey))")
                StdIO.printLine("relays  \(relays.isEmpty ? "(none: pass --relay URL)" : relays.joined(separator: " "))")
            }
        }
    }
}
