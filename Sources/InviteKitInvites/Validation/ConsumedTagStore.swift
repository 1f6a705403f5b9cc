/// Remembers which single-use invites were used. `consume` must be atomic: when several
/// callers race on one key, exactly one gets `true`.
public protocol ConsumedTagStore: Sendable {
    /// Marks `key` used. `true` when this call used it, `false` when it was already used.
    /// Throws ``InviteError/Code/storeUnavailable`` when the store cannot answer.
    func consume(_ key: String) throws(InviteError) -> Bool
    /// Whether `key` was used, without using it.
    func isConsumed(_ key: String) throws(InviteError) -> Bool
}
