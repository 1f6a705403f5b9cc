import ArgumentParser
import Foundation
import InviteKit
import InviteKitStore

/// `invitekit invite create --group ID` / `invite revoke --group ID`: invites of a node's group,
/// recorded in its home. The stateless `invite create` (no `--group`) stays as it was.
struct NodeInviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "node-invite",
        abstract: "Invites of a node's group (reached as `invitekit invite create --group ID` and `invitekit invite revoke`).",
        subcommands: [Create.self, Revoke.self])

    enum Format: String, ExpressibleByArgument { case signed, whistle }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an invite for a group; the home records it.")
        @OptionGroup var options: NodeGroupCommand.HomeOptions
        @Option(help: "The group id.") var group: String
        @Flag(help: "The invite admits one joiner.") var singleUse = false
        @Option(help: "The invite expires after S seconds.") var expiresIn: Int64?
        @Option(help: "signed (default) or whistle.") var format: Format = .signed
        @Flag(help: "Also print the URL as a QR code.") var qr = false

        func run() async throws {
            try await runReportingErrors {
                guard format == .signed else { throw CLIFailure("--format whistle is not offered by a node yet: use signed", exitCode: 64) }
                let url = try await NodeInbox.perform(.invite(group: group, singleUse: singleUse, expiresIn: expiresIn), home: options.resolved)
                NodeOutput.emit(options.json, ["url": url, "single_use": singleUse ? "true" : "false"], text: url)
                if qr { StdIO.write(Array(try QRCode(text: url).terminalString(invert: false).utf8)) }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Rotate the group's invite tag: every earlier invite is refused.")
        @OptionGroup var options: NodeGroupCommand.HomeOptions
        @Option(help: "The group id.") var group: String

        func run() async throws {
            try await runReportingErrors {
                let tag = try await NodeInbox.perform(.revoke(group: group), home: options.resolved)
                NodeOutput.emit(options.json, ["group": group, "tag": tag], text: "revoked; new tag \(tag)")
            }
        }
    }
}
