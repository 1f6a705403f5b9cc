import Foundation

/// A value behind a lock: the one way InviteKit's classes share mutable state between threads
/// (as swift-nio's `NIOLockedValueBox`). A class whose only mutable state sits in boxes is
/// plainly `Sendable`; `withLock` never suspends, so no lock is held across an `await`.
package final class LockedBox<Value> {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// Safe: `value` is only reached through `withLock`, which holds `lock`.
extension LockedBox: @unchecked Sendable where Value: Sendable {}
