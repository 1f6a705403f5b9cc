/// The joiner's state machine (PROTOCOL.md §8.4). Pure: it is fed what happened and decides.
///
/// - An error for another tag, or arriving after a cancel or a finished join, is ignored.
/// - A Welcome only counts while joining.
/// - Offline catch-up feeds the same inputs in `created_at` order and reaches the same state.
public struct JoinStateMachine: Sendable {
    public enum Input: Sendable, Hashable {
        case startValidating
        /// The invite checked out locally; the join request for `tag` was sent.
        case requestSent(tag: String)
        /// The invite failed local checks (expired, forged…).
        case validationFailed(tag: String?, error: InviteKitError)
        /// A join error arrived from the inviter.
        case joinErrorReceived(tag: String, errorType: InviteJoinError.ErrorType)
        /// A Welcome for our request was processed into a group.
        case welcomeProcessed(JoinedGroup)
        case cancel
    }

    /// Why an input did not change the state (for logs and tests).
    public enum Ignored: Sendable, Hashable {
        case otherTag, afterCancel, alreadyFinished, notExpected
    }

    public private(set) var state: JoinState = .idle
    public private(set) var ignored: [Ignored] = []

    public init() {}

    /// Applies one input; returns `true` when the state changed.
    @discardableResult
    public mutating func apply(_ input: Input) -> Bool {
        switch (state, input) {
        case (.cancelled, _):
            ignored.append(.afterCancel); return false
        case (.joined, _), (.joinFailed, _):
            ignored.append(.alreadyFinished); return false
        case (_, .cancel):
            state = .cancelled
        case (.idle, .startValidating):
            state = .validating
        case (.validating, .requestSent(let tag)), (.idle, .requestSent(let tag)):
            state = .joining(tag: tag)
        case (.validating, .validationFailed(let tag, let error)), (.idle, .validationFailed(let tag, let error)):
            state = .joinFailed(tag: tag ?? "", error: error)
        case (.joining(let tag), .joinErrorReceived(let errorTag, let type)):
            guard tag == errorTag else { ignored.append(.otherTag); return false }
            state = .joinFailed(tag: tag, error: InviteKitError(type.inviteKitCode, underlyingCode: type.rawValue))
        case (.joining, .welcomeProcessed(let group)):
            state = .joined(group)
        default:
            ignored.append(.notExpected); return false
        }
        return true
    }
}
