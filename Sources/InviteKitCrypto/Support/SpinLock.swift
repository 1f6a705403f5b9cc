import Foundation

/// A small mutex for the few shared mutable things in the crypto layer.
final class SpinLock: @unchecked Sendable {
    private let lock = NSLock()
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body()
    }
}
