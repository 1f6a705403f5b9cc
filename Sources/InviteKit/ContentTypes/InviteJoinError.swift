import Foundation

/// `convos.org/invite_join_error:1.0`: tells a joiner why the inviter refused a join.
public struct InviteJoinError: Sendable, Hashable {
    /// The failure kind. Unknown raw values are kept (forward compatibility) and shown as a
    /// generic failure.
    public enum ErrorType: Sendable, Hashable, CaseIterable {
        case conversationExpired, conversationNotFound, consentNotAllowed, genericFailure, singleUseConsumed
        case unknown(String)

        public static var allCases: [ErrorType] {
            [.conversationExpired, .conversationNotFound, .consentNotAllowed, .genericFailure, .singleUseConsumed]
        }

        public init(rawValue: String) {
            self = Self.allCases.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
        }

        public var rawValue: String {
            switch self {
            case .conversationExpired: return "conversation_expired"
            case .conversationNotFound: return "conversation_not_found"
            case .consentNotAllowed: return "consent_not_allowed"
            case .genericFailure: return "generic_failure"
            case .singleUseConsumed: return "single_use_consumed"
            case .unknown(let raw): return raw
            }
        }

        /// What the joiner is told. It names no group, member or reason the joiner could not
        /// already know from holding the invite.
        public var userFacingMessage: String {
            switch self {
            case .conversationExpired: return "This invite is no longer valid"
            case .conversationNotFound: return "This conversation no longer exists"
            case .consentNotAllowed: return "You can't join this conversation"
            case .singleUseConsumed: return "This invite was already used"
            case .genericFailure, .unknown: return "Couldn't join this conversation"
            }
        }
    }

    public static let maxReasonLength = 500

    public var errorType: ErrorType
    public var inviteTag: String
    /// Whole seconds are sent; fractional seconds are accepted on read.
    public var timestamp: Date
    /// At most ``maxReasonLength`` characters (longer ones are truncated when encoding).
    public var reason: String?

    public init(errorType: ErrorType, inviteTag: String, timestamp: Date, reason: String? = nil) {
        self.errorType = errorType; self.inviteTag = inviteTag; self.timestamp = timestamp
        self.reason = reason.map { String($0.prefix(Self.maxReasonLength)) }
    }

    public var userFacingMessage: String { errorType.userFacingMessage }
}
