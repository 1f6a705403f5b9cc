import InviteKitCrypto

/// The one error taxonomy applications show: every case has a stable `code`, a short `title`,
/// a user-facing `message` and a retryable/fatal classification. Layer errors are mapped into it
/// by ``InviteKitError/from(_:)``; the layer's own code stays in `underlyingCode` for logs.
///
/// Messages never say more than the reader may learn: a forged invite and a malformed one read
/// the same, and nothing names a group or member.
public struct InviteKitError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        // Invites
        case inviteInvalid = "invite_invalid"
        case inviteExpired = "invite_expired"
        case inviteAlreadyUsed = "invite_already_used"
        case inviteRevoked = "invite_revoked"
        case conversationExpired = "conversation_expired"
        case conversationNotFound = "conversation_not_found"
        case consentNotAllowed = "consent_not_allowed"
        case joinFailed = "join_failed"
        // Keys and messages
        case invalidKey = "invalid_key"
        case messageRejected = "message_rejected"
        // Key packages and groups
        case keyPackageInvalid = "key_package_invalid"
        case keyPackageUnavailable = "key_package_unavailable"
        case welcomeFailed = "welcome_failed"
        case commitRejected = "commit_rejected"
        case notPermitted = "not_permitted"
        case outOfSync = "out_of_sync"
        /// One own Commit per group is in flight until a relay acknowledges it (docs/node.md §5).
        case commitPending = "commit_pending"
        case notAMember = "not_a_member"
        /// The change would leave the group without an admin: the last admin names a successor
        /// before demoting themselves or leaving (PROTOCOL §5.16).
        case lastAdmin = "last_admin"
        /// The group was disbanded (component `0x800c`): it takes no further change (PROTOCOL §5.16).
        case groupDisbanded = "group_disbanded"
        case groupNotFound = "group_not_found"
        // Transport and storage
        case relayRejected = "relay_rejected"
        case relayUnavailable = "relay_unavailable"
        case storageUnavailable = "storage_unavailable"
        /// Another process holds the home's lock.
        case storeLocked = "store_locked"
        case storeCorrupt = "store_corrupt"
        case storeFull = "store_full"
        /// The home has no usable identity (missing or mismatched key file or database).
        case homeUnavailable = "home_unavailable"
        // The node's runtime
        case alreadyRunning = "already_running"
        /// ``InviteKitNode/shutdown()`` ended this node: open the home again with a new one.
        case nodeShutDown = "node_shut_down"
        case timedOut = "timed_out"
        /// An event would exceed the configured `maxEventBytes` (PROTOCOL §5.11).
        case tooLarge = "too_large"
        /// A wait named an id this home does not have: a join, a message or a Commit
        /// (`underlyingCode` says which: `join_not_found`, `message_not_found`, `commit_not_found`).
        case notFound = "not_found"
        // Anything not mapped
        case unknown = "unknown"
    }

    public let code: Code
    /// The layer error's stable code (e.g. `nip44_invalid_mac`), for logs and support.
    public let underlyingCode: String?
    /// The layer's own words for a local failure (the store's: "the home is read-only …"), for
    /// the person running this device; never shown for what a peer sent, never secret.
    public let context: String?

    public init(_ code: Code, underlyingCode: String? = nil, context: String? = nil) {
        self.code = code
        self.underlyingCode = underlyingCode
        self.context = context
    }

    public var title: String { code.title }
    public var message: String { code.message }
    public var isRetryable: Bool { code.isRetryable }
    public var description: String { underlyingCode.map { "\(code.rawValue) (\($0))" } ?? code.rawValue }
}

/// Reported like every layer error: `codeName` is the taxonomy code, `detail` the user-facing
/// message (the layer's code stays in ``underlyingCode``).
extension InviteKitError: CodedError {
    public var codeName: String { code.rawValue }
    public var detail: String { message }
}

extension InviteKitError.Code {
    public var title: String {
        switch self {
        case .inviteInvalid, .inviteExpired, .inviteAlreadyUsed, .inviteRevoked: return "Invite not valid"
        case .conversationExpired, .conversationNotFound, .consentNotAllowed, .joinFailed: return "Couldn't join"
        case .invalidKey: return "Invalid key"
        case .messageRejected: return "Message rejected"
        case .keyPackageInvalid, .keyPackageUnavailable: return "Can't add this person"
        case .welcomeFailed: return "Couldn't join"
        case .commitRejected, .notPermitted, .outOfSync, .commitPending, .lastAdmin: return "Group update failed"
        case .notAMember, .groupNotFound, .groupDisbanded: return "Group not available"
        case .relayRejected, .relayUnavailable: return "Connection problem"
        case .storageUnavailable, .storeLocked, .storeCorrupt, .storeFull, .homeUnavailable: return "Storage problem"
        case .alreadyRunning, .timedOut, .nodeShutDown: return "Not done"
        case .tooLarge: return "Too large"
        case .notFound: return "Not found"
        case .unknown: return "Something went wrong"
        }
    }

    public var message: String {
        switch self {
        case .inviteInvalid: return "This invite link is not valid"
        case .inviteExpired: return "This invite has expired"
        case .inviteAlreadyUsed: return "This invite was already used"
        case .inviteRevoked, .conversationExpired: return "This invite is no longer valid"
        case .conversationNotFound: return "This conversation no longer exists"
        case .consentNotAllowed: return "You can't join this conversation"
        case .joinFailed: return "Couldn't join this conversation"
        case .invalidKey: return "That key is not valid"
        case .messageRejected: return "A message could not be read and was ignored"
        case .keyPackageInvalid: return "This person's key package is not valid"
        case .keyPackageUnavailable: return "This person has no usable key package"
        case .welcomeFailed: return "The group invitation could not be opened"
        case .commitRejected: return "A group update was rejected"
        case .notPermitted: return "Only an admin can do that"
        case .outOfSync: return "This group is out of sync; it will catch up"
        case .commitPending: return "Another change to this group is still being sent"
        case .notAMember: return "Not a member of this group"
        case .lastAdmin: return "The group needs another admin first"
        case .groupDisbanded: return "This group was disbanded"
        case .groupNotFound: return "No such group"
        case .relayRejected: return "The relay refused the message"
        case .relayUnavailable: return "Can't reach the relay; will retry"
        case .storageUnavailable: return "Local storage is unavailable"
        case .storeLocked: return "Another process is using this home"
        case .storeCorrupt: return "Local storage is damaged"
        case .storeFull: return "The disk is full"
        case .homeUnavailable: return "This home cannot be used"
        case .alreadyRunning: return "The node is already running"
        case .nodeShutDown: return "The node was shut down"
        case .timedOut: return "No answer in time"
        case .tooLarge: return "This is too large for the relays to accept"
        case .notFound: return "Nothing with that id on this device"
        case .unknown: return "Something went wrong"
        }
    }

    /// Whether the same action may succeed later without the user changing anything.
    public var isRetryable: Bool {
        switch self {
        case .relayUnavailable, .storageUnavailable, .outOfSync, .joinFailed, .commitPending, .storeLocked, .timedOut: return true
        default: return false
        }
    }
}
