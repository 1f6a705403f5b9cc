import InviteKitStore

/// How a node keeps the one joiner model, ``JoinStateMachine``, in `pending_joins`
/// (docs/storage.md §6), one stored state per machine state:
///
/// | ``JoinState`` | `pending_joins.state` |
/// |---|---|
/// | `idle`, `validating` | never stored: the row is written with the request it was checked for |
/// | `joining(tag)` | `requested` (`invite_tag`; a Whistle code's is `NULL`) |
/// | `joined(group)` | `joined` (`group_id`) |
/// | `joinFailed(tag, error)` | `failed` (the raw `invite_join_error`, or `welcome_failed`) |
/// | `cancelled` | `cancelled` |
extension PendingJoinRecord {
    /// The `error_type` of a join ended by a Welcome that could not be used; `error_reason` holds
    /// its code.
    static let welcomeFailedType = "welcome_failed"

    /// The error a `failed` join ended with, as ``JoinStateMachine`` decided it: the inviter's
    /// refusal mapped into the taxonomy, or ``InviteKitError/Code/welcomeFailed`` with the
    /// Welcome's error code. `nil` for a join in any other state.
    var failure: InviteKitError? {
        guard state == .failed else { return nil }
        if errorType == Self.welcomeFailedType { return JoinStateMachine.welcomeError(code: errorReason) }
        return JoinStateMachine.refusalError(InviteJoinError.ErrorType(rawValue: errorType ?? ""))
    }
}
