import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

/// One of this node's joins through an invite link, as an app lists it
/// (``InviteKitNode/inviteLinkJoins()``, PROTOCOL §5.14.16): the request the user consented to,
/// where it stands and what admins reported about it.
public struct InviteLinkJoin: Sendable {
    /// Where the join stands: the attempt's state (PROTOCOL §5.14.11), except that a `requested`
    /// attempt with an admin's `retired` or `declined` notice shows that notice.
    public enum Status: String, Sendable, CaseIterable {
        case joined
        case joinedUnassociated = "joined_unassociated"
        case withdrawn
        case expired
        case invited
        /// An admin reported that the link was retired (revoked): get a new code.
        case retired
        /// An admin declined the request. That admin's claim: another admin may still approve
        /// it before its deadline, and a matching Welcome is still used.
        case declined
        case requested

        /// Nothing more will happen without the user (or the wait is over for a waiter).
        public var isFinal: Bool { self != .invited && self != .requested }
    }

    /// One admin's status claim.
    public struct Notice: Sendable, Hashable {
        /// The admin account whose seal carried it.
        public let author: String
        public let outcome: InviteStatusV1.Outcome
    }

    /// Lowercase hex of the request id: the join's id in every call and event.
    public let requestID: String
    public let linkID: String
    public let status: Status
    /// The preview the user consented to (never a newer descriptor's).
    public let preview: InvitePreviewV1
    /// The newest revision sent (0 is the consent; each refresh adds one, up to 7).
    public let revision: UInt32
    /// The signed deadline (Unix seconds).
    public let validUntil: Int64
    public let notices: [Notice]
    /// The group joined, once a Welcome matched the preview.
    public let groupID: String?
    /// The last refusal's code (`invite_preview_mismatch` for a Welcome into a group whose link
    /// entry does not match the preview).
    public let failure: String?
    /// The delivery of the newest request, refresh or withdrawal over the code's relays; `failed`
    /// also when every relay refused the KeyPackage a request waits for (it can never leave).
    public let delivery: EventDeliverySummary?
    public let createdAt: Int64
    public let updatedAt: Int64

    init(record: InviteLinkJoinRecord, attempt: InviteLinkJoinAttempt, delivery: EventDeliverySummary?, now: Int64) {
        requestID = record.requestID
        linkID = record.linkID
        status = Self.status(of: attempt, now: now)
        preview = attempt.previewAtConsent
        revision = attempt.requests.last?.tbs.revision ?? 0
        validUntil = record.validUntil
        notices = attempt.notices.map { Notice(author: Hex.encode($0.author), outcome: $0.status.outcome) }
        groupID = record.groupID
        failure = record.failure
        self.delivery = delivery
        createdAt = record.createdAt
        updatedAt = record.updatedAt
    }

    /// The one rule for the shown status (PROTOCOL §5.14.16).
    static func status(of attempt: InviteLinkJoinAttempt, now: Int64) -> Status {
        let state = attempt.state(at: UInt64(max(now, 0)))
        switch state {
        case .joined: return .joined
        case .joinedUnassociated: return .joinedUnassociated
        case .withdrawn: return .withdrawn
        case .expired: return .expired
        case .invited: return .invited
        case .requested:
            if attempt.notices.contains(where: { $0.status.outcome == .retired }) { return .retired }
            if attempt.notices.contains(where: { $0.status.outcome == .declined }) { return .declined }
            return .requested
        }
    }

    /// The refusal a waiter gets for a final status other than a join (`nil` for a join).
    var refusal: InviteKitError? {
        switch status {
        case .joined, .joinedUnassociated, .invited, .requested: return nil
        case .withdrawn: return InviteKitError(.joinFailed, underlyingCode: "invite_request_withdrawn")
        case .expired: return InviteKitError(.inviteExpired, underlyingCode: "invite_request_expired")
        case .retired: return InviteKitError(.inviteRevoked, underlyingCode: "invite_link_retired")
        case .declined: return InviteKitError(.consentNotAllowed, underlyingCode: "invite_link_declined")
        }
    }

    /// Every stored join, oldest first: the node's and the home's one reading.
    static func all(in tx: StoreTransaction, now: Int64) throws -> [InviteLinkJoin] {
        try tx.inviteLinkJoins.all().map { record in
            InviteLinkJoin(record: record, attempt: try InviteLinkJoinAttempt(serialized: record.attempt), delivery: try delivery(of: record, in: tx),
                           now: now)
        }
    }

    /// The delivery of the record's newest request, refresh or withdrawal wrap: `failed` too when
    /// the KeyPackage it waits for was refused by every relay.
    static func delivery(of record: InviteLinkJoinRecord, in tx: StoreTransaction) throws -> EventDeliverySummary? {
        try tx.outbound.summary(eventID: record.lastRequestEventID)
    }
}
