import ArgumentParser
import Foundation
import InviteKit

/// The node's invite commands (PROTOCOL §8.3 rule 5; docs/cli.md §5): `invite create --group ID` (through
/// ``createOnNode(group:home:singleUse:expiresIn:format:json:qr:)``) and `invite revoke`, and the
/// Whistle join requests waiting for an admin, `invite requests|approve|decline --group ID`.
extension InviteCommand {
    /// `invite create --group ID`: an invite of a node's group, made by the node (or its running
    /// serve) and recorded in its home.
    static func createOnNode(group: String, home: String?, singleUse: Bool, expiresIn: Int64?, format: Format, json: Bool, qr: Bool) async throws {
        try await runReportingErrors {
            // A Whistle code has no field for either (the node refuses them too: whistle_no_single_use / _no_expiry).
            if format == .whistle && (singleUse || expiresIn != nil) {
                throw CLIFailure("a Whistle code cannot be single use or expire (it carries only relay, inviter and group; every join waits for approval): drop --single-use/--expires-in or use --format signed", exitCode: 64)
            }
            // The stateless invite allows 100 years; a node's invite lives in its store, bounded like serve's.
            if let expiresIn, expiresIn > NumericOption.maxLifetime {
                throw CLIFailure("--expires-in of a node's invite must be 1...\(NumericOption.maxLifetime) seconds", exitCode: 64)
            }
            let resolved = StoreHome.resolve(home)
            try resolved.requireIntact()
            let stored: StoredInvite.Format = format == .whistle ? .whistle : .signed
            let url = try await NodeInbox.answer(.invite(group: group, singleUse: singleUse, expiresIn: expiresIn, format: stored), home: resolved)
            NodeOutput.emit(json, ["url": url, "format": stored.rawValue, "single_use": singleUse ? "true" : "false"], text: url)
            if qr { StdIO.write(Array(try QRCode(text: url).terminalString(invert: false).utf8)) }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Rotate the group's invite tag: every earlier invite is refused.")
        @OptionGroup var options: GroupCommand.HomeOptions
        @Option(help: "The group id.") var group: String

        func run() async throws {
            try await runReportingErrors {
                let tag = try await NodeInbox.answer(.revoke(group: group), home: try options.intact())
                NodeOutput.emit(options.json, ["group": group, "tag": tag], text: "revoked; new tag \(tag)")
            }
        }
    }

    struct Requests: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "requests", abstract: "List Whistle join requests waiting for approval (read only: works while serve runs).")
        @OptionGroup var options: GroupCommand.HomeOptions
        @Option(help: "The group id.") var group: String

        func run() async throws {
            try runReportingErrors {
                let home = try options.intact()
                let waiting = try NodeHome(home).pendingApprovals(groupID: group)
                if waiting.isEmpty && !options.json { StdIO.printError("no join requests waiting") }
                for a in waiting {
                    let npub = NodeOutput.npub(a.joiner)
                    NodeOutput.emit(options.json, ["npub": npub, "created_at": "\(a.createdAt)", "request": a.requestID, "group": a.groupID],
                                    text: "\(npub)  \(NodeOutput.time(a.createdAt))  request \(a.requestID)")
                }
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "approve",
            abstract: "Approve a waiting Whistle join request: commit the add, send the Welcome after a relay's OK, print the epoch.")
        @OptionGroup var options: GroupCommand.HomeOptions
        @Option(help: "The group id.") var group: String
        @Option(help: "The joiner's npub1… or hex key.") var member: String
        @Option(help: "Give up waiting for the relay after S seconds (exit 4).", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 30

        func run() async throws {
            try await runReportingErrors {
                _ = try NostrKeys.parsePublicKey(member)
                try await GroupCommand.commit(.approve(group: group, member: member), options: options, timeout: timeout)
            }
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decline", abstract: "Decline a waiting Whistle join request (nothing is sent to the joiner).")
        @OptionGroup var options: GroupCommand.HomeOptions
        @Option(help: "The group id.") var group: String
        @Option(help: "The joiner's npub1… or hex key.") var member: String

        func run() async throws {
            try await runReportingErrors {
                let key = try NostrKeys.parsePublicKey(member)
                let n = try await NodeInbox.answer(.decline(group: group, member: member), home: try options.intact())
                let npub = NodeOutput.npub(key.rawRepresentation)
                NodeOutput.emit(options.json, ["member": npub, "declined": n], text: "declined \(n) request(s) from \(npub)")
            }
        }
    }
}
