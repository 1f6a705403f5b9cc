import InviteKitInvites
import InviteKitStore

/// ``ConsumedTagStore`` over the node's `consumed_tags` table (PROTOCOL §3.7). A join decision
/// consumes inside the node's own transaction, so that the consumption commits together with the
/// decision's record and its reply or Commit: the node passes ``consume(_:in:requestID:)`` to
/// ``JoinRequestProcessor/process(_:hosted:busy:consume:)`` per call, with the transaction
/// that call runs in. The protocol's methods open a transaction each.
struct TransactionConsumedTagStore: ConsumedTagStore {
    let store: Store
    let clock: @Sendable () -> Int64

    /// Consumes `key` in `tx`, recording the request that used it. `tx` is valid only inside its
    /// `Store.write` closure, so it is passed per call and never kept.
    func consume(_ key: String, in tx: StoreTransaction, requestID: String?) throws(InviteError) -> Bool {
        do { return try tx.consumedTags.consume(key, requestID: requestID, now: clock()) } catch {
            throw InviteError(.storeUnavailable, "consumed-tags store: \(error)")
        }
    }

    func consume(_ key: String) throws(InviteError) -> Bool {
        do { return try store.write { tx in try tx.consumedTags.consume(key, now: clock()) } } catch {
            throw InviteError(.storeUnavailable, "consumed-tags store: \(error)")
        }
    }

    func isConsumed(_ key: String) throws(InviteError) -> Bool {
        do { return try store.read { tx in try tx.consumedTags.isConsumed(key) } } catch {
            throw InviteError(.storeUnavailable, "consumed-tags store: \(error)")
        }
    }
}
