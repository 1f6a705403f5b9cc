import InviteKitCrypto

/// A requester's join through an invite link, as `invite_link_joins` keeps it (docs/storage.md
/// §6). The store knows no MLS: ``attempt`` is the MLS layer's sealed attempt, opaque here; the
/// other columns are what listing and lookups need without opening it.
public struct InviteLinkJoinRecord: Sendable {
    /// Lowercase hex of the context's `request_id`.
    public var requestID: String
    /// Lowercase hex of the link id.
    public var linkID: String
    /// The code's request relays: where requests, refreshes and the withdrawal go.
    public var codeRelays: [String]
    /// Holds the consent key and the bearer.
    public var attempt: SecureBytes
    /// The attempt's state as last stored (`InviteLinkJoinState` raw value, or `declined` /
    /// `retired` when an admin's notice ended the wait).
    public var state: String
    /// The signed deadline (Unix seconds).
    public var validUntil: Int64
    /// The id of the newest request or withdrawal gift wrap queued, to read its delivery.
    public var lastRequestEventID: String
    /// The group joined, once a Welcome matched.
    public var groupID: String?
    /// The code of the last refusal (a Welcome that did not match, say).
    public var failure: String?
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(requestID: String, linkID: String, codeRelays: [String], attempt: SecureBytes, state: String, validUntil: Int64,
                lastRequestEventID: String, groupID: String? = nil, failure: String? = nil, createdAt: Int64, updatedAt: Int64) {
        self.requestID = requestID; self.linkID = linkID; self.codeRelays = codeRelays; self.attempt = attempt; self.state = state
        self.validUntil = validUntil; self.lastRequestEventID = lastRequestEventID; self.groupID = groupID; self.failure = failure
        self.createdAt = createdAt; self.updatedAt = updatedAt
    }
}
