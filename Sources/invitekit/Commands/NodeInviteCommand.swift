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
                let node = try InviteKitNode(home: options.resolved)
                let row = try await node.groupRow(group)
                let invite = try await node.createInvite(groupID: row.id, singleUse: singleUse, expiresIn: expiresIn)
                NodeOutput.emit(options.json, ["url": invite.url, "tag": invite.tag, "single_use": singleUse ? "true" : "false"], text: invite.url)
                if qr { StdIO.write(Array(try QRCode(text: invite.url).terminalString(invert: false).utf8)) }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Rotate the group's invite tag: every earlier invite is refused.")
        @OptionGroup var options: NodeGroupCommand.HomeOptions
        @Option(help: "The group id.") var group: String

        func run() async throws {
            try await runReportingErrors {
                let node = try InviteKitNode(home: options.resolved)
                let row = try await node.groupRow(group)
                let tag = try await node.revokeInvites(groupID: row.id)
                NodeOutput.emit(options.json, ["group": row.id, "tag": tag], text: "revoked; new tag \(tag)")
            }
        }
    }
}
