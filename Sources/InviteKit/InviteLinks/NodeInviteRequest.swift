import InviteKitCrypto
import InviteKitMLS

/// A request to one of a group's invite links, as the admin's ledger projects it (PROTOCOL
/// §5.14.10, §5.14.15). ``requestID`` names it in
/// ``InviteKitNode/decideInviteRequest(_:in:approve:)``.
public struct NodeInviteRequest: Sendable, Hashable {
    public let groupID: String
    /// Lowercase hex SHA-256 of the encoded request context (`InviteRequestContextV1`): one id
    /// for the context across its refreshes.
    public let requestID: String
    /// The link it was sent to, lowercase hex.
    public let linkID: String
    /// The requester's account.
    public let requester: Secp256k1.XOnlyPublicKey
    public let state: InviteRequestState
    /// The highest validated revision (0 for the first request), `nil` before revision zero arrived.
    public let revision: UInt32?
    /// The request's signed deadline (Unix seconds).
    public let validUntil: UInt64
    /// First seen after the link expired: manual approval only.
    public let timingUnverified: Bool
    /// An approval's Add Commit is in flight.
    public let approving: Bool
}
