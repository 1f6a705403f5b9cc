import ArgumentParser
import InviteKit

struct EventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event", abstract: "Sign and verify NIP-01 events.",
        subcommands: [Sign.self, Verify.self])

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sign", abstract: "stdin {kind, content, tags, created_at?}; stdout the signed event.")
        @OptionGroup var secret: SecretKeyInput
        func run() throws {
            try runReportingErrors {
                let key = try secret.resolve(stdinIsInput: true)
                let template = try parseTemplate(try StdIO.readAll())
                StdIO.printLine(try template.signed(by: key).jsonString)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "verify", abstract: "stdin an event; exit 0 if valid, 1 otherwise.")
        func run() throws {
            try runReportingErrors {
                let event = try NostrEvent(json: try StdIO.readAll())
                try event.verify()
                StdIO.printLine("valid: \(event.id)")
            }
        }
    }
}
