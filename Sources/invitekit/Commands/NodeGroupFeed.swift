import Foundation
import InviteKit

/// `serve`'s live subscription to its groups' kind-445 events (MIP-03 `#h` filter): each event
/// goes to ``InviteKitNode/handleGroupEvent(_:)``, which skips ids already stored, so relays'
/// copies and a node's own echoed events are applied once.
actor NodeGroupFeed {
    private let node: InviteKitNode
    private let pool: RelayPool
    private var tags: [String] = []
    private var subscription: PoolSubscription?
    private var reader: Task<Void, Never>?

    init(node: InviteKitNode, pool: RelayPool) { self.node = node; self.pool = pool }

    /// Subscribes anew when the node's groups changed since the last call.
    func refresh() async {
        guard let now = try? await node.subscribedGroupTags().sorted(), now != tags, !now.isEmpty else { return }
        await stop()
        tags = now
        let sub = await pool.subscribe([NostrFilter(kinds: [445]).tag("h", now)])
        subscription = sub
        let node = self.node
        reader = Task {
            for await item in sub.items {
                guard case .event(let event, _) = item else { continue }
                if let m = try? await node.handleGroupEvent(event) {
                    StdIO.printLine("message \(m.eventID.prefix(12))… from \(NodeOutput.npub(m.sender))")
                }
            }
        }
    }

    func stop() async {
        await subscription?.close()
        reader?.cancel()
        subscription = nil
        reader = nil
    }
}
