import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// What a Marmot app event says about another one (PROTOCOL §5.15): the one owner of the kinds
/// and `e`-tag rules of reactions (NIP-25, kind 7), replies (kind 9 with `e` and `q` tags), edits
/// (kind 1009, one `e` tag; `foundation/application-messages.md`, "Message edits") and deletions
/// (NIP-09, kind 5), as MDK v0.9.14 writes them (`crates/marmot-app/src/messages/intents.rs:259-309`,
/// kinds in `crates/traits/src/app_event.rs:46-61`). Every other kind is a plain message.
public enum MessageRelation: Sendable, Hashable {
    /// A reaction (NIP-25): `emoji` on the message `target`.
    case reaction(to: String, emoji: String)
    /// A chat message (kind 9) answering `target`.
    case reply(to: String, text: String)
    /// A replacement body for `target`, honoured only from its author.
    case edit(of: String, text: String)
    /// Its author withdraws `targets` (NIP-09), honoured only for their author's messages.
    case deletion(of: [String])

    /// NIP-25 reaction.
    public static let reactionKind = 7
    /// NIP-09 deletion request.
    public static let deletionKind = 5
    /// Marmot message edit (`application-messages.md`, "Message edits (kind 1009)").
    public static let editKind = 1009
    /// The tag naming the event a relation points at (NIP-10, NIP-25, NIP-09).
    public static let eventTag = "e"
    /// The quote tag a reply also carries (NIP-18; MDK's reply intent).
    public static let quoteTag = "q"
    /// The longest reaction MDK accepts, in characters (`intents.rs:33`).
    public static let maxReactionCharacters = 64
    /// Kinds shown on their target rather than as rows of a timeline.
    public static let annotationKinds = [reactionKind, editKind, deletionKind]

    /// Reads an app event's relation; `nil` for a plain message or one whose tags do not name a
    /// valid target (64 lowercase hex characters): it stays a message of its kind.
    public init?(kind: Int, tags: [[String]], content: String) {
        let targets = tags.filter { $0.count >= 2 && $0[0] == Self.eventTag }.map { $0[1] }
        guard !targets.isEmpty, targets.allSatisfy(Self.isEventID) else { return nil }
        switch kind {
        // NIP-25: the last `e` tag is the reacted-to event.
        case Self.reactionKind: self = .reaction(to: targets[targets.count - 1], emoji: content)
        case MarmotProfile.chatMessageKind: self = .reply(to: targets[0], text: content)
        case Self.editKind:
            // "a single `e` tag": an edit naming two targets edits neither.
            guard targets.count == 1 else { return nil }
            self = .edit(of: targets[0], text: content)
        case Self.deletionKind: self = .deletion(of: targets)
        default: return nil
        }
    }

    /// The relation of a stored message, read from its kind and tags.
    public init?(_ message: StoredMessage) {
        self.init(kind: message.kind, tags: message.tags, content: message.content)
    }

    /// The app event id it points at (a deletion's first).
    public var target: String {
        switch self {
        case .reaction(let t, _), .reply(let t, _), .edit(let t, _): return t
        case .deletion(let ts): return ts[0]
        }
    }

    /// Every app event id it points at.
    public var targets: [String] {
        if case .deletion(let ts) = self { return ts }
        return [target]
    }

    /// Whether it changes its target, so only the target's author may send it.
    public var changesTarget: Bool {
        switch self {
        case .edit, .deletion: return true
        case .reaction, .reply: return false
        }
    }

    /// The inner event that says it, for ``InviteKitNode``'s sends. Refuses an empty reaction or
    /// text, a reaction over ``maxReactionCharacters`` or with control characters, and a target
    /// that is not an event id (`message_rejected`).
    public func template(createdAt: Int64) throws(InviteKitError) -> EventTemplate {
        guard targets.allSatisfy(Self.isEventID) else { throw InviteKitError(.messageRejected, underlyingCode: "invalid_target") }
        let e = { (id: String) in [Self.eventTag, id] }
        switch self {
        case .reaction(let t, let emoji):
            guard !emoji.isEmpty, emoji.count <= Self.maxReactionCharacters,
                  !emoji.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw InviteKitError(.messageRejected, underlyingCode: "invalid_reaction")
            }
            return EventTemplate(kind: Self.reactionKind, content: emoji, tags: [e(t)], createdAt: createdAt)
        case .reply(let t, let text):
            // MDK's reply: an `e` and a `q` tag naming the target.
            guard !text.isEmpty else { throw InviteKitError(.messageRejected, underlyingCode: "empty_text") }
            return EventTemplate(kind: MarmotProfile.chatMessageKind, content: text, tags: [e(t), [Self.quoteTag, t]], createdAt: createdAt)
        case .edit(let t, let text):
            guard !text.isEmpty else { throw InviteKitError(.messageRejected, underlyingCode: "empty_text") }
            return EventTemplate(kind: Self.editKind, content: text, tags: [e(t)], createdAt: createdAt)
        case .deletion(let ts):
            return EventTemplate(kind: Self.deletionKind, content: "", tags: ts.map(e), createdAt: createdAt)
        }
    }

    /// The authorship rule of edits and deletions (`application-messages.md`, "Message edits";
    /// NIP-09): honoured only when the authenticated account that sent it wrote the target. Asked
    /// on send, on receipt and when a timeline is folded.
    public static func mayChange(target author: [UInt8], by sender: [UInt8]) -> Bool { author == sender }

    /// 64 lowercase hex characters: a Nostr event id.
    static func isEventID(_ s: String) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
