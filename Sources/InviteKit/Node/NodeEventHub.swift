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
        /// Events yielded so far: what ``change(after:)`` compares against.
        var yielded: UInt64 = 0
        var changeWaiters: [CheckedContinuation<UInt64?, Never>] = []
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
        let (streams, waiters, count) = state.withLock { s in
            s.yielded += 1
            defer { s.changeWaiters = [] }
            return (Array(s.subscribers.values), s.changeWaiters, s.yielded)
        }
        for c in streams { c.yield(event) }
        for w in waiters { w.resume(returning: count) }
    }

    /// How many events were yielded so far: a reader's starting point for ``change(after:)``.
    var yieldedCount: UInt64 { state.withLock { $0.yielded } }

    /// Returns the number of events yielded once it is more than `seen` (at once when it already
    /// is), or `nil` once the hub finished. A wake-up, not a queue: a reader that looks at the
    /// store after each wake-up loses nothing however many events it slept through.
    func change(after seen: UInt64) async -> UInt64? {
        await withCheckedContinuation { (c: CheckedContinuation<UInt64?, Never>) in
            let now: UInt64?? = state.withLock { s in
                if s.finished { return .some(nil) }
                if s.yielded > seen { return .some(s.yielded) }
                s.changeWaiters.append(c)
                return .none
            }
            if let now { c.resume(returning: now) }
        }
    }

    /// Ends every stream; later subscribers get an already finished one.
    func finish() {
        let (all, waiters) = state.withLock { s -> ([AsyncStream<NodeEvent>.Continuation], [CheckedContinuation<UInt64?, Never>]) in
            s.finished = true
            defer { s.subscribers = [:]; s.changeWaiters = [] }
            return (Array(s.subscribers.values), s.changeWaiters)
        }
        for c in all { c.finish() }
        for w in waiters { w.resume(returning: nil) }
    }

    private func remove(_ id: UInt64) { _ = state.withLock { $0.subscribers.removeValue(forKey: id) } }
}
