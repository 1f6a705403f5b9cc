import ArgumentParser
import InviteKit

/// `invitekit group mute|pin|mark-read`: this home's own view of a group (PROTOCOL §5.16),
/// nothing sent to the group.
extension GroupCommand {
    struct Mute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mute", abstract: "Mute the group on this home (--off unmutes); nothing is sent.")
        @OptionGroup var options: HomeOptions
        @Option(help: "The group id.") var group: String
        @Flag(help: "Unmute instead.") var off = false

        func run() async throws {
            try await runReportingErrors {
                let answer = try await NodeInbox.answer(.mute(group: group, muted: !off), home: try options.intact())
                NodeOutput.emit(options.json, ["group": group, "state": answer], text: answer)
            }
        }
    }

    struct Pin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pin", abstract: "Pin the group on this home (--off unpins); nothing is sent.")
        @OptionGroup var options: HomeOptions
        @Option(help: "The group id.") var group: String
        @Flag(help: "Unpin instead.") var off = false

        func run() async throws {
            try await runReportingErrors {
                let answer = try await NodeInbox.answer(.pin(group: group, pinned: !off), home: try options.intact())
                NodeOutput.emit(options.json, ["group": group, "state": answer], text: answer)
            }
        }
    }

    struct MarkRead: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mark-read", abstract: "Mark the group read on this home up to a message (default: the newest); print the unread count left. Nothing is sent.")
        @OptionGroup var options: HomeOptions
        @Option(help: "The group id.") var group: String
        @Option(help: "The event id of the last message read.") var event: String?

        func run() async throws {
            try await runReportingErrors {
                let unread = try await NodeInbox.answer(.markRead(group: group, event: event), home: try options.intact())
                NodeOutput.emit(options.json, ["group": group, "unread": unread], text: "\(unread) unread")
            }
        }
    }
}
