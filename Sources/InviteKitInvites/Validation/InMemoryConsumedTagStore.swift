import InviteKitCrypto

/// A ``ConsumedTagStore`` for one process's lifetime (tests, short-lived tools).
public final class InMemoryConsumedTagStore: ConsumedTagStore {
    private let used = LockedBox(Set<String>())

    /// An empty store.
    public init() {}

    /// Atomic under the box's lock.
    public func consume(_ key: String) throws(InviteError) -> Bool {
        used.withLock { $0.insert(key).inserted }
    }

    public func isConsumed(_ key: String) throws(InviteError) -> Bool {
        used.withLock { $0.contains(key) }
    }
}
