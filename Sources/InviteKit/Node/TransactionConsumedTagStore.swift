import Foundation
import InviteKitInvites
import InviteKitStore

/// ``ConsumedTagStore`` that writes into the node's *current* transaction, so a join decision's
/// consumption of a single-use tag commits together with the decision's record and its reply or
/// Commit (one transaction per state change). Outside a bound transaction it opens its own.
///
/// The node actor binds it around each decision; the lock only guards the slot.
final class TransactionConsumedTagStore: ConsumedTagStore, @unchecked Sendable {
    private let store: Store
    private let lock = NSLock()
    private var current: StoreTransaction?
    private var requestID: String?
    private let clock: @Sendable () -> Int64

    init(store: Store, clock: @escaping @Sendable () -> Int64) {
        self.store = store
        self.clock = clock
    }

    /// Runs `body` with consumptions going into `tx`.
    func bound<T>(to tx: StoreTransaction, requestID: String?, _ body: () throws -> T) rethrows -> T {
        lock.withLock { current = tx; self.requestID = requestID }
        defer { lock.withLock { current = nil; self.requestID = nil } }
        return try body()
    }

    func consume(_ key: String) throws(InviteError) -> Bool {
        let (tx, request) = lock.withLock { (current, requestID) }
        do {
            if let tx { return try tx.consumedTags.consume(key, requestID: request, now: clock()) }
            return try store.write { tx in try tx.consumedTags.consume(key, now: clock()) }
        } catch {
            throw InviteError(.storeUnavailable, "consumed-tags store: \(error)")
        }
    }

    func isConsumed(_ key: String) throws(InviteError) -> Bool {
        let tx = lock.withLock { current }
        do {
            if let tx { return try tx.consumedTags.isConsumed(key) }
            return try store.read { tx in try tx.consumedTags.isConsumed(key) }
        } catch {
            throw InviteError(.storeUnavailable, "consumed-tags store: \(error)")
        }
    }
}
