import Foundation
import InviteKitCrypto

/// The node's event fan-out: each ``subscribe(bufferingNewest:)`` gets its own stream, and every
/// stream receives every event yielded after it subscribed. A lock, not the node actor, guards
/// the subscribers, so subscribing needs no `await`.
final class NodeEventHub: Sendable {
    private struct State {
        var subscribers: [UInt64: AsyncStream<NodeEvent>.Continuation] = [:]
        var nextID: UInt64 = 0
        var finished = false
    }
    private let state = LockedBox(State())

    func subscribe(bufferingNewest limit: Int) -> AsyncStream<NodeEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: NodeEvent.self, bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id: UInt64? = state.withLock { s in
            guard !s.finished else { return nil }
            defer { s.nextID += 1 }
            s.subscribers[s.nextID] = continuation
            return s.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    func yield(_ event: NodeEvent) {
        for c in state.withLock({ Array($0.subscribers.values) }) { c.yield(event) }
    }

    /// Ends every stream; later subscribers get an already finished one.
    func finish() {
        let all = state.withLock { s -> [AsyncStream<NodeEvent>.Continuation] in
            s.finished = true
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        for c in all { c.finish() }
    }

    private func remove(_ id: UInt64) { _ = state.withLock { $0.subscribers.removeValue(forKey: id) } }
}
