import ArgumentParser
import InviteKit

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Generate or inspect Nostr keys.",
        subcommands: [Generate.self, Show.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "generate", abstract: "Print a new key pair (secret key included: this is an export).")
        @Flag(help: "Print JSON.") var json = false
        func run() throws {
            try runReportingErrors { KeysCommand.print(secret: Secp256k1.PrivateKey(), publicKey: nil, json: json) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show",
            abstract: "Show every form of a key. 64 hex characters are read as a secret key; npub shows the public forms only.")
        @Argument(help: "hex secret key, nsec1… or npub1…; - reads it from stdin (a key on the command line shows in ps).") var key: String
        @Flag(help: "Print JSON.") var json = false
        func run() throws {
            try runReportingErrors {
                let text = key == "-" ? String(decoding: try StdIO.readAll(limit: 4096), as: UTF8.self) : key
                let parsed: (secret: Secp256k1.PrivateKey?, publicKey: Secp256k1.XOnlyPublicKey)
                do { parsed = try NostrKeys.parseAnyKey(text) } catch {
                    throw CLIFailure("not a key: expected 64 hex characters, nsec1… or npub1…")
                }
                KeysCommand.print(secret: parsed.secret, publicKey: parsed.publicKey, json: json)
            }
        }
    }

    static func print(secret: Secp256k1.PrivateKey?, publicKey: Secp256k1.XOnlyPublicKey?, json: Bool) {
        let pub = secret?.publicKey ?? publicKey!
        var out = JSONOutput()
        if let secret {
            out.add("secretKey", Hex.encode(secret.rawRepresentation.exportBytes()))
        }
        out.add("publicKey", pub.hex)
        if let secret { out.add("nsec", NIP19.nsec(secret)) }
        out.add("npub", NIP19.npub(pub))
        if json {
            StdIO.printLine(out.string)
        } else if case .object(let members) = out.value {
            for m in members { StdIO.printLine("\(m.key): \(m.value.stringValue ?? "")") }
        }
    }
}
