import ArgumentParser
import InviteKit

struct WrapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wrap", abstract: "Seal and gift-wrap a rumor (NIP-59). stdin {kind, content, tags, created_at?}.")
    @Option(name: .customLong("secret-key"), help: "Sender's secret key (hex or nsec).") var secretKey: String
    @Option(help: "Recipient's public key (hex or npub).") var recipient: String

    func run() throws {
        try runReportingErrors {
            let sender = try NostrKeys.parseSecretKey(secretKey)
            let to = try NostrKeys.parsePublicKey(recipient)
            let template = try parseTemplate(try StdIO.readAll())
            StdIO.printLine(try GiftWrap.wrap(template: template, from: sender, to: to).jsonString)
        }
    }
}

struct UnwrapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unwrap", abstract: "Open a gift wrap. stdout {\"sender\": hex, \"rumor\": {...}}; exit 1 with the reason if any check fails.")
    @Option(name: .customLong("secret-key"), help: "Recipient's secret key (hex or nsec).") var secretKey: String

    func run() throws {
        try runReportingErrors {
            let me = try NostrKeys.parseSecretKey(secretKey)
            let wrap = try NostrEvent(json: try StdIO.readAll())
            let opened = try GiftWrap.unwrap(wrap, recipient: me)
            var out = JSONOutput()
            out.add("sender", opened.sender.hex)
            out.add("rumor", json: opened.rumor.jsonValue)
            StdIO.printLine(out.string)
        }
    }
}
