/// Where a joiner is: `idle → validating → joining(tag) → joined | joinFailed(tag, error) | cancelled`.
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
    /// The `h` tag value (hex nostr group id).
    public let nostrGroupID: String
    public let epoch: UInt64
    public init(nostrGroupID: String, epoch: UInt64) { self.nostrGroupID = nostrGroupID; self.epoch = epoch }
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
