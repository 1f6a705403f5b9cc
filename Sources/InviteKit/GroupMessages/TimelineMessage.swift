import InviteKitStore

/// One row of a group's conversation (``InviteKitNode/timeline(of:after:limit:)``): a message with
/// what points at it folded in (PROTOCOL §5.15). Reactions, edits and deletions are not rows of
/// their own; a reply is a row that names what it answers.
public struct TimelineMessage: Sendable, Hashable {
    /// The stored message, its first version.
    public let message: StoredMessage
    /// The app event id this message answers, when it is a reply.
    public let replyTo: String?
    /// Reactions to it that were not deleted, in history order.
    public let reactions: [StoredMessage]
    /// Its author's edits (kind 1009), oldest first by the edit's `created_at`: the last is shown.
    public let edits: [StoredMessage]

    /// Its author deleted it (NIP-09): content and tags are gone.
    public var isDeleted: Bool { message.deletedAt != nil }
    /// Whether an edit replaced its body.
    public var isEdited: Bool { !edits.isEmpty }
    /// The body to show: the latest edit's, else the message's; empty once deleted.
    public var text: String { isDeleted ? "" : edits.last?.content ?? message.content }
    /// Reaction counts by emoji, most frequent first, then by first use.
    public var reactionCounts: [(emoji: String, count: Int)] {
        var order: [String] = [], counts: [String: Int] = [:]
        for r in reactions {
            if counts[r.content] == nil { order.append(r.content) }
            counts[r.content, default: 0] += 1
        }
        return order.enumerated().sorted { (counts[$0.element]!, -$0.offset) > (counts[$1.element]!, -$1.offset) }.map { ($0.element, counts[$0.element]!) }
    }

    public init(message: StoredMessage, replyTo: String?, reactions: [StoredMessage], edits: [StoredMessage]) {
        self.message = message; self.replyTo = replyTo; self.reactions = reactions; self.edits = edits
    }

    public static func == (a: TimelineMessage, b: TimelineMessage) -> Bool {
        a.message == b.message && a.replyTo == b.replyTo && a.reactions == b.reactions && a.edits == b.edits
    }

    public func hash(into h: inout Hasher) { h.combine(message) }

    /// Folds `related` (messages pointing at `rows`, any order) into `rows`. An edit is kept only
    /// from the target's author (``MessageRelation/mayChange(target:by:)``), and the latest by
    /// `created_at` (then id) wins, as `application-messages.md` orders competing edits.
    public static func fold(_ rows: [StoredMessage], related: [StoredMessage]) -> [TimelineMessage] {
        var byTarget: [String: [StoredMessage]] = [:]
        for r in related where r.deletedAt == nil { if let t = r.refersTo { byTarget[t, default: []].append(r) } }
        return rows.map { m in
            let pointing = m.appEventID.flatMap { byTarget[$0] } ?? []
            var reactions: [StoredMessage] = [], edits: [StoredMessage] = []
            for r in pointing {
                switch MessageRelation(r) {
                case .reaction?: reactions.append(r)
                case .edit? where MessageRelation.mayChange(target: m.sender, by: r.sender): edits.append(r)
                default: break
                }
            }
            edits.sort { ($0.createdAt, $0.appEventID ?? "") < ($1.createdAt, $1.appEventID ?? "") }
            let replyTo: String? = if case .reply(let t, _)? = MessageRelation(m) { t } else { nil }
            return TimelineMessage(message: m, replyTo: replyTo, reactions: reactions, edits: edits)
        }
    }
}
