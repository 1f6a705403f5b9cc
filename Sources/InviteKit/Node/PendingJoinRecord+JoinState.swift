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
        if errorType == Self.welcomeFailedType {
            return InviteKitError(.welcomeFailed, underlyingCode: errorReason ?? Self.welcomeFailedType)
        }
        let type = InviteJoinError.ErrorType(rawValue: errorType ?? "")
        return InviteKitError(type.inviteKitCode, underlyingCode: type.rawValue)
    }
}

extension StoreTransaction {
    /// Moves a waiting join by one event of ``JoinStateMachine`` and stores the state it reaches
    /// (the table above) in this transaction. Throws the machine's refusal when the join does not
    /// take the event, and the store's `invalid_transition` when another transaction ended the
    /// join first, so a second answer never changes it. `reason` and `at` are a refusal's
    /// `invite_join_error` fields.
    @discardableResult
    func advance(_ join: PendingJoinRecord, _ event: JoinStateMachine.Event, reason: String? = nil, at: Int64? = nil,
                 now: Int64) throws -> JoinState {
        var machine = try JoinStateMachine(resuming: join)
        let state = try machine.apply(event)
        switch (state, event) {
        case (.joined(let group), _):
            try pendingJoins.markJoined(id: join.id, groupID: group.groupID, now: now)
        case (.joinFailed(let tag, _), .rejected(_, let type)):
            try pendingJoins.markFailed(id: join.id, errorType: type.rawValue, errorTag: tag, reason: reason, at: at ?? now, now: now)
        case (.joinFailed(_, let error), _):
            try pendingJoins.markFailed(id: join.id, errorType: PendingJoinRecord.welcomeFailedType, errorTag: nil,
                                        reason: error.underlyingCode, at: now, now: now)
        case (.cancelled, _):
            try pendingJoins.cancel(id: join.id, now: now)
        case (.idle, _), (.validating, _), (.joining, _):
            break  // not an end: the row stays `requested`
        }
        return state
    }
}
