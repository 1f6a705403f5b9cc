import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

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
    /// What the admin found when it validated the governing request's offer evidence (PROTOCOL
    /// §5.14.15, "Offer evidence"): only a ``Offer/valid`` offer is processed automatically.
    public let offer: Offer

    /// The state of a request's offer evidence: the exact kind 30443 event its offer names
    /// (`transports/nostr-invite-links.md`, "Request delivery and package evidence").
    public enum Offer: Sendable, Hashable {
        /// Not checked yet (the run loop checks admitted requests shortly after admission).
        case unchecked
        /// Found, verified, and the package the requester consented with.
        case valid
        /// No relay had it; checked again later (`reason` is the stable code).
        case unavailable(reason: String)
        /// Found and not acceptable: another account's or another package, or no longer valid.
        /// A refresh offering another package is checked anew.
        case invalid(reason: String)

        /// `unchecked`, `valid`, `unavailable` or `invalid`: what the CLI prints.
        public var name: String {
            switch self {
            case .unchecked: return "unchecked"
            case .valid: return "valid"
            case .unavailable: return "unavailable"
            case .invalid: return "invalid"
            }
        }

        /// The stable code of a problem, `nil` for an offer unchecked or valid.
        public var reason: String? {
            switch self {
            case .unchecked, .valid: return nil
            case .unavailable(let r), .invalid(let r): return r
            }
        }

        init(_ check: InviteOfferCheckRecord?) {
            switch check?.outcome {
            case nil: self = .unchecked
            case .valid?: self = .valid
            case .unavailable?: self = .unavailable(reason: check?.reason ?? "offer_not_found")
            case .invalid?: self = .invalid(reason: check?.reason ?? "offer_mismatch")
            }
        }
    }
}
