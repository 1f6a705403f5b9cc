import Foundation

/// The node's event fan-out: each ``subscribe(bufferingNewest:)`` gets its own stream, and every
/// stream receives every event yielded after it subscribed. A lock, not the node actor, guards
/// the subscribers, so subscribing needs no `await`.
final class NodeEventHub: @unchecked Sendable {
    // Safe: `subscribers`, `nextID` and `finished` are only touched under `lock`.
    private let lock = NSLock()
    private var subscribers: [UInt64: AsyncStream<NodeEvent>.Continuation] = [:]
    private var nextID: UInt64 = 0
    private var finished = false

    func subscribe(bufferingNewest limit: Int) -> AsyncStream<NodeEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: NodeEvent.self, bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id: UInt64? = lock.withLock {
            guard !finished else { return nil }
            defer { nextID += 1 }
            subscribers[nextID] = continuation
            return nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    func yield(_ event: NodeEvent) {
        for c in lock.withLock({ Array(subscribers.values) }) { c.yield(event) }
    }

    /// Ends every stream; later subscribers get an already finished one.
    func finish() {
        let all = lock.withLock { () -> [AsyncStream<NodeEvent>.Continuation] in
            finished = true
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for c in all { c.finish() }
    }

    private func remove(_ id: UInt64) { _ = lock.withLock { subscribers.removeValue(forKey: id) } }
}
