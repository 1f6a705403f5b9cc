/// The one joiner model (PROTOCOL §8.4): what state a join is in and which events may move it.
/// Pure: it is fed what happened and decides; ``JoinClient`` drives it in memory and
/// ``InviteKitNode`` through its `pending_joins` rows (``PendingJoinRecord``, one stored state
/// per machine state: docs/storage.md §6).
///
/// An event the current state does not take is refused with an ``InviteKitError`` of code
/// ``InviteKitError/Code/messageRejected`` whose `underlyingCode` names the ``Refusal``, and the
/// state stays as it was: a join error for another invite, anything after a cancel or a finished
/// join, a Welcome before the request. Offline catch-up feeds the same events in `created_at`
/// order and reaches the same state.
public struct JoinStateMachine: Sendable, Hashable {
    /// What happened to a join.
    public enum Event: Sendable, Hashable {
        /// The invite's local checks begin (`AnyInvite`, `InviteValidator`).
        case validate
        /// The invite held and the join request was built; `tag` is the signed invite's tag, empty
        /// for a Whistle code (which has none).
        case requested(tag: String)
        /// The invite failed its local checks (expired, forged, malformed) or the request could not
        /// be built: nothing was sent.
        case invalid(InviteKitError)
        /// The inviter's `invite_join_error` for the invite with `tag` (PROTOCOL §8.2).
        case rejected(tag: String, errorType: InviteJoinError.ErrorType)
        /// A Welcome made for this join's KeyPackage was processed into a group.
        case welcomeMatched(JoinedGroup)
        /// A Welcome made for this join's KeyPackage could not be used (issue 31, D7).
        case welcomeFailed(InviteKitError)
        /// The joiner gave up on the join.
        case cancel
    }

    /// Why an event did not move the state: the `underlyingCode` of the refusal's error.
    public enum Refusal: String, Sendable, CaseIterable {
        /// A join error for another invite's tag.
        case otherTag = "join_other_tag"
        /// The join was cancelled; nothing moves it again.
        case afterCancel = "join_cancelled"
        /// The join ended (joined or failed); nothing moves it again.
        case alreadyFinished = "join_finished"
        /// An event the state does not take (a Welcome before the request, a second request).
        case notExpected = "join_not_expected"

        /// The typed error an event refused for this reason throws.
        public var error: InviteKitError { InviteKitError(.messageRejected, underlyingCode: rawValue) }

        /// The refusal an error names, `nil` for any other error.
        public init?(_ error: InviteKitError) {
            guard error.code == .messageRejected, let code = error.underlyingCode, let refusal = Refusal(rawValue: code) else { return nil }
            self = refusal
        }
    }

    public private(set) var state: JoinState

    /// A new join, at ``JoinState/idle``.
    public init() { state = .idle }

    /// The join a stored record is in. Only a waiting join (`requested`, i.e.
    /// ``JoinState/joining(tag:)``) takes events; a finished or cancelled one is refused as any
    /// event in its state would be.
    public init(resuming record: PendingJoinRecord) throws(InviteKitError) {
        switch record.state {
        case .requested: state = .joining(tag: record.inviteTag ?? "")
        case .joined, .failed: throw Refusal.alreadyFinished.error
        case .cancelled: throw Refusal.afterCancel.error
        }
    }

    /// Applies one event and returns the new state; throws (and keeps the state) when the current
    /// state does not take it.
    @discardableResult
    public mutating func apply(_ event: Event) throws(InviteKitError) -> JoinState {
        state = try Self.next(after: state, on: event)
        return state
    }

    /// The transition table: the state `event` moves `state` to.
    public static func next(after state: JoinState, on event: Event) throws(InviteKitError) -> JoinState {
        switch (state, event) {
        case (.cancelled, _):
            throw Refusal.afterCancel.error
        case (.joined, _), (.joinFailed, _):
            throw Refusal.alreadyFinished.error
        case (_, .cancel):
            return .cancelled
        case (.idle, .validate):
            return .validating
        case (.idle, .requested(let tag)), (.validating, .requested(let tag)):
            return .joining(tag: tag)
        case (.idle, .invalid(let error)), (.validating, .invalid(let error)):
            return .joinFailed(tag: "", error: error)
        case (.joining(let tag), .rejected(let errorTag, let type)):
            guard tag == errorTag else { throw Refusal.otherTag.error }
            return .joinFailed(tag: tag, error: refusalError(type))
        case (.joining, .welcomeMatched(let group)):
            return .joined(group)
        case (.joining(let tag), .welcomeFailed(let error)):
            return .joinFailed(tag: tag, error: welcomeError(code: error.underlyingCode ?? error.code.rawValue))
        default:
            throw Refusal.notExpected.error
        }
    }

    /// The error a join the inviter refused ends with: its `error_type` mapped into the taxonomy
    /// (PROTOCOL §8.3), the raw type as underlying code. A node reads a stored refusal back
    /// through it too.
    static func refusalError(_ type: InviteJoinError.ErrorType) -> InviteKitError {
        InviteKitError(type.inviteKitCode, underlyingCode: type.rawValue)
    }

    /// The error a join ends with when a Welcome made for its KeyPackage could not be used:
    /// `welcome_failed`, with the cause's code (`nil`: none kept) as underlying code.
    static func welcomeError(code: String?) -> InviteKitError {
        InviteKitError(.welcomeFailed, underlyingCode: code ?? InviteKitError.Code.welcomeFailed.rawValue)
    }
}
