import Foundation

/// A ``ConsumedTagStore`` for one process's lifetime (tests, short-lived tools).
public final class InMemoryConsumedTagStore: ConsumedTagStore, @unchecked Sendable {
    private let lock = NSLock()
    private var used = Set<String>()

    /// An empty store.
    public init() {}

    /// Atomic under a lock.
    public func consume(_ key: String) throws(InviteError) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return used.insert(key).inserted
    }

    /// Reads under the lock.
    public func isConsumed(_ key: String) throws(InviteError) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return used.contains(key)
    }
}
