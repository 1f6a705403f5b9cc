import ArgumentParser
import Foundation
import InviteKit

/// `group react|reply|edit|delete|retention` (docs/cli.md; PROTOCOL §5.15).
extension GroupCommand {
    /// `--home`, `--json`, `--group`, `--message` and `--timeout`: every message that points at another.
    struct MessageOptions: ParsableArguments {
        @OptionGroup var options: HomeOptions
        @Option(help: "The group id.") var group: String
        @Option(help: "The message: its event id, app event id, or a unique app-event-id prefix (8+ characters, as `group read` shows).")
        var message: String
        @Option(help: "Give up waiting for the relay after S seconds (exit 4).", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 30
    }

    struct React: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "react", abstract: "React to a message (NIP-25, kind 7).")
        @OptionGroup var target: MessageOptions
        @Argument(help: "The reaction, e.g. an emoji or +.") var emoji: String

        func run() async throws {
            try await runReportingErrors {
                try await GroupCommand.sendAndReport(.react(group: target.group, message: target.message, emoji: emoji), options: target.options,
                                                     timeout: target.timeout)
            }
        }
    }

    struct Reply: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reply", abstract: "Answer a message (kind 9 with e and q tags).")
        @OptionGroup var target: MessageOptions
        @Argument(help: "The reply.") var text: String

        func run() async throws {
            try await runReportingErrors {
                try await GroupCommand.sendAndReport(.reply(group: target.group, message: target.message, text: text), options: target.options,
                                                     timeout: target.timeout)
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "edit", abstract: "Replace the text of an own message (kind 1009).")
        @OptionGroup var target: MessageOptions
        @Argument(help: "The new text.") var text: String

        func run() async throws {
            try await runReportingErrors {
                try await GroupCommand.sendAndReport(.edit(group: target.group, message: target.message, text: text), options: target.options,
                                                     timeout: target.timeout)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete an own message (NIP-09, kind 5).")
        @OptionGroup var target: MessageOptions

        func run() async throws {
            try await runReportingErrors {
                try await GroupCommand.sendAndReport(.delete(group: target.group, message: target.message), options: target.options,
                                                     timeout: target.timeout)
            }
        }
    }

    struct Retention: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retention",
            abstract: "Set how long messages live (disappearing messages; 0 turns it off; admins, current profile); print the new epoch once applied.")
        @OptionGroup var change: ChangeOptions
        @Argument(help: "Seconds a message lives after it was written; 0 keeps messages.") var seconds: UInt64

        func run() async throws {
            try await change.commit { .retention(group: change.group, seconds: seconds) }
        }
    }

    /// A message request: sent (here or by `serve`), then its delivery status. Exit 0 acknowledged
    /// by a relay, 4 every relay refused it or none answered in time (it stays queued).
    static func sendAndReport(_ request: NodeHomeRequest, options: HomeOptions, timeout: Double) async throws {
        let home = try options.intact()
        let eventID = try await NodeInbox.perform(request, home: home, settle: .decided, timeout: timeout,
                                                  notTakenMessage: "not sent: serve did not take the message within \(timeout) s") {
            NodeOutput.emit(options.json, ["status": "not_sent"], text: "not sent")
        }
        let last = try NodeHome(home).messageStatus(of: eventID) ?? .pending
        // Queued is not lost: whoever runs this home next (serve, or any command) sends it.
        let shown = last == .pending || last == .sent ? "queued" : last.rawValue
        NodeOutput.emit(options.json, ["event": eventID, "status": shown], text: "\(shown) \(eventID)")
        switch last {
        case .acked: return
        case .failed: throw CLIFailure("every relay refused the message", exitCode: 4)
        default: throw CLIFailure("queued; no relay acknowledged it within \(timeout) s (it is sent when this home next runs)", exitCode: 4)
        }
    }

    /// How `group read` shows one conversation row: time, sender, status, a short app event id
    /// (what `--message` takes), a reply's target, the text (the latest edit), reactions.
    static func render(_ t: TimelineMessage) -> (fields: [String: String], text: String) {
        let m = t.message
        let npub = NodeOutput.npub(m.sender)
        let id = m.appEventID ?? m.eventID
        let body = t.isDeleted ? "(deleted)" : t.text + (t.isEdited ? "  (edited)" : "")
        let reply = t.replyTo.map { "↳ #\($0.prefix(shortIDLength))  " } ?? ""
        let reactions = t.reactionCounts.map { $0.count == 1 ? $0.emoji : "\($0.emoji)×\($0.count)" }.joined(separator: " ")
        var fields = ["event": m.eventID, "app_event": id, "sender": npub, "created_at": "\(m.createdAt)", "status": m.status.rawValue,
                      "kind": "\(m.kind)", "content": t.text, "edited": t.isEdited ? "true" : "false", "deleted": t.isDeleted ? "true" : "false",
                      "reactions": t.reactionCounts.map { "\($0.emoji):\($0.count)" }.joined(separator: ",")]
        if let r = t.replyTo { fields["reply_to"] = r }
        if m.kind != MarmotProfile.chatMessageKind { fields["tags"] = m.tags.map { $0.joined(separator: "=") }.joined(separator: ";") }
        let kind = m.kind == MarmotProfile.chatMessageKind ? "" : "(kind \(m.kind)) "
        return (fields, "\(NodeOutput.time(m.createdAt))  #\(id.prefix(shortIDLength))  \(npub)  [\(m.status.rawValue)]  \(reply)\(kind)\(body)"
                        + (reactions.isEmpty ? "" : "  [\(reactions)]"))
    }

    /// How `group read --follow` shows a reaction, edit or deletion that arrived after the
    /// conversation was printed: one line naming its target.
    static func renderAnnotation(_ m: StoredMessage, _ relation: MessageRelation) -> (fields: [String: String], text: String) {
        let npub = NodeOutput.npub(m.sender)
        let said: String
        switch relation {
        case .reaction(let t, let emoji): said = "reacted \(emoji) to #\(t.prefix(shortIDLength))"
        case .edit(let t, let text): said = "edited #\(t.prefix(shortIDLength)): \(text)"
        case .deletion(let ts): said = "deleted " + ts.map { "#\($0.prefix(shortIDLength))" }.joined(separator: " ")
        case .reply(let t, let text): said = "↳ #\(t.prefix(shortIDLength))  \(text)"
        }
        return (["event": m.eventID, "app_event": m.appEventID ?? m.eventID, "sender": npub, "created_at": "\(m.createdAt)", "kind": "\(m.kind)",
                 "target": relation.target, "content": m.content],
                "\(NodeOutput.time(m.createdAt))  \(npub)  \(said)")
    }

    /// Characters of an app event id `group read` shows; `--message` takes such a prefix.
    static let shortIDLength = 12
}
