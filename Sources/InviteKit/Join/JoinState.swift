/// Where a joiner is: `idle → validating → joining(tag) → joined | joinFailed(tag, error) | cancelled`
/// (``JoinStateMachine``). A node stores the last four as `pending_joins.state` `requested`,
/// `joined`, `failed` and `cancelled` (``PendingJoinRecord``); `idle` and `validating` are never
/// stored, because the row is written with the request it was checked for.
public enum JoinState: Sendable, Hashable {
    case idle
    case validating
    /// Waiting for the inviter's Welcome or join error for the invite with this tag.
    case joining(tag: String)
    case joined(JoinedGroup)
    case joinFailed(tag: String, error: InviteKitError)
    case cancelled

    public var isTerminal: Bool {
        switch self {
        case .joined, .joinFailed, .cancelled: return true
        default: return false
        }
    }
}

/// What a successful join produced.
public struct JoinedGroup: Sendable, Hashable {
    /// The MLS group id (hex), as ``NodeGroup/id`` and `pending_joins.group_id` hold it.
    public let groupID: String
    /// The `h` tag value (hex nostr group id).
    public let nostrGroupID: String
    public let epoch: UInt64
    public init(groupID: String, nostrGroupID: String, epoch: UInt64) {
        self.groupID = groupID; self.nostrGroupID = nostrGroupID; self.epoch = epoch
    }
}

extension JoinState: CustomStringConvertible {
    public var description: String {
        switch self {
        case .idle: return "idle"
        case .validating: return "validating"
        case .joining(let tag): return "joining (invite \(tag))"
        case .joined(let g): return "joined group \(g.nostrGroupID.prefix(16))… at epoch \(g.epoch)"
        case .joinFailed(let tag, let error): return "join failed (invite \(tag)): \(error.message)"
        case .cancelled: return "cancelled"
        }
    }
}
