import ArgumentParser
import InviteKit

struct WrapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wrap", abstract: "Seal and gift-wrap a rumor (NIP-59). stdin {kind, content, tags, created_at?}.")
    @OptionGroup var secret: SecretKeyInput
    @Option(help: "Recipient's public key (hex or npub).") var recipient: String

    func run() throws {
        try runReportingErrors {
            let sender = try secret.resolve(stdinIsInput: true)
            let to = try NostrKeys.parsePublicKey(recipient)
            let template = try parseTemplate(try StdIO.readAll())
            StdIO.printLine(try GiftWrap.wrap(template: template, from: sender, to: to).jsonString)
        }
    }
}

struct UnwrapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unwrap", abstract: "Open a gift wrap. stdout {\"sender\": hex, \"rumor\": {...}}; exit 1 with the reason if any check fails.")
    @OptionGroup var secret: SecretKeyInput

    func run() throws {
        try runReportingErrors {
            let me = try secret.resolve(stdinIsInput: true)
            let wrap = try NostrEvent(json: try StdIO.readAll())
            let opened = try GiftWrap.unwrap(wrap, recipient: me)
            var out = JSONOutput()
            out.add("sender", opened.sender.hex)
            out.add("rumor", json: opened.rumor.jsonValue)
            StdIO.printLine(out.string)
        }
    }
}
