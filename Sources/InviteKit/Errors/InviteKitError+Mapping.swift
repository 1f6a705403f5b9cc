import InviteKitCrypto
import InviteKitNostr
import InviteKitInvites
import InviteKitMLS
import InviteKitRelay
import InviteKitStore

extension InviteKitError {
    /// Maps any error the library throws into the taxonomy; unknown errors map to `.unknown`.
    public static func from(_ error: any Error) -> InviteKitError {
        switch error {
        case let e as InviteKitError: return e
        case let e as InviteError: return InviteKitError(map(invite: e.code), underlyingCode: e.code.rawValue)
        case let e as NostrError: return InviteKitError(map(nostr: e.code), underlyingCode: e.code.rawValue)
        case let e as CryptoError:
            return InviteKitError(e.code == .invalidPrivateKey || e.code == .invalidPublicKey ? .invalidKey : .messageRejected,
                                  underlyingCode: e.code.rawValue)
        case let e as MLSError:
            // The budget error is about what this device built: its words name the bound.
            return InviteKitError(map(mls: e.code), underlyingCode: e.code.rawValue, context: e.code == .eventTooLarge ? e.detail : nil)
        case let e as RelayError: return InviteKitError(map(relay: e.code), underlyingCode: e.code.rawValue)
        case let e as StoreError: return InviteKitError(map(store: e.code), underlyingCode: e.code.rawValue, context: e.detail.isEmpty ? nil : e.detail)
        case let e as ContentTypeError: return InviteKitError(.messageRejected, underlyingCode: e.code.rawValue)  // and sealed messages
        default: return InviteKitError(.unknown)
        }
    }

    static func map(invite c: InviteError.Code) -> Code {
        switch c {
        case .inviteExpired: return .inviteExpired
        case .inviteAlreadyUsed: return .inviteAlreadyUsed
        case .inviteRevoked: return .inviteRevoked
        case .conversationExpired: return .conversationExpired
        case .conversationNotFound: return .conversationNotFound
        case .storeUnavailable: return .storageUnavailable
        case .invalidPublicKey, .invalidNpub: return .invalidKey
        default: return .inviteInvalid  // forged, malformed and wrong-creator invites read alike
        }
    }

    static func map(nostr c: NostrError.Code) -> Code {
        switch c {
        case .invalidKey, .invalidBech32, .invalidChecksum, .unexpectedPrefix, .invalidTLV: return .invalidKey
        default: return .messageRejected
        }
    }

    static func map(mls c: MLSError.Code) -> Code {
        switch c {
        case .storage: return .storageUnavailable
        case .notFound: return .keyPackageUnavailable
        case .eventTooLarge: return .tooLarge
        case .invalidWelcome, .treeChunksMissing, .treeChunkInvalid, .treeHashMismatch: return .welcomeFailed
        case .notAdmin: return .notPermitted
        case .groupDisbanded: return .groupDisbanded
        case .notMember: return .notAMember
        case .invalidInviteCode, .invalidInvitePreview, .invalidInviteRecord: return .inviteInvalid  // PROTOCOL §5.14
        case .inviteLinkInactive, .inviteRequestClosed: return .inviteRevoked  // PROTOCOL §5.14.10
        case .invitePreviewMismatch: return .welcomeFailed
        case .inviteUnauthorized: return .notPermitted
        case .inviteCapacity: return .storeFull  // a local admission bound, never a decline
        default: return .keyPackageInvalid
        }
    }

    static func map(store c: StoreErrorCodes.Code) -> Code {
        switch c {
        case .locked: return .storeLocked
        case .full: return .storeFull
        case .corrupt, .invalidRecord: return .storeCorrupt
        case .notFound: return .groupNotFound
        case .identityUnavailable, .identityExists, .homeUnavailable: return .homeUnavailable
        case .invalidTransition: return .notPermitted
        default: return .storageUnavailable
        }
    }

    /// Runs `body` and maps whatever it throws into the taxonomy (the one exit of every public
    /// node method).
    static func mapping<T>(_ body: () throws -> T) throws(InviteKitError) -> T {
        do { return try body() } catch { throw from(error) }
    }

    static func mapping<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async throws(InviteKitError) -> T {
        do { return try await body() } catch { throw from(error) }
    }

    static func map(relay c: RelayError.Code) -> Code {
        switch c {
        case .rejected, .noRelayAccepted, .invalidEvent: return .relayRejected
        default: return .relayUnavailable
        }
    }

    /// The join-error type a joiner is sent for a failed validation, or `nil` when the inviter
    /// must stay silent (expired, forged, wrong creator: PROTOCOL.md §8.3).
    public static func joinErrorType(for code: InviteError.Code) -> InviteJoinError.ErrorType? {
        switch code {
        case .conversationExpired, .inviteRevoked: return .conversationExpired
        case .conversationNotFound: return .conversationNotFound
        case .inviteAlreadyUsed: return .singleUseConsumed
        default: return nil
        }
    }
}

extension InviteJoinError.ErrorType {
    /// The taxonomy case a joiner shows for a received join error.
    public var inviteKitCode: InviteKitError.Code {
        switch self {
        case .conversationExpired: return .conversationExpired
        case .conversationNotFound: return .conversationNotFound
        case .consentNotAllowed: return .consentNotAllowed
        case .singleUseConsumed: return .inviteAlreadyUsed
        case .genericFailure, .unknown: return .joinFailed
        }
    }
}
