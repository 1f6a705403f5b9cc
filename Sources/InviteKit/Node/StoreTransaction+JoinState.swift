import InviteKitStore

extension StoreTransaction {
    /// The node's one writer of a join's state: moves a waiting join by one event of
    /// ``JoinStateMachine`` and stores the state it reaches (one stored state per machine state,
    /// ``PendingJoinRecord``) in this transaction. Throws the machine's refusal when the join does
    /// not take the event, and the store's `invalid_transition` when another transaction ended
    /// the join first, so a second answer never changes it. `reason` and `at` are a refusal's
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
