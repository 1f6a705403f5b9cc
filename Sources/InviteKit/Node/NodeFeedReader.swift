import InviteKitStore

/// The reading side of ``InviteKitNode/feed(since:)``: pages of stored messages after the last one
/// handed out, and a sleep on the node's event hub when there is none. It holds the store only
/// (the node's pool, whose readers run beside its writer), so a feed never waits on the node.
actor NodeFeedReader {
    private let store: Store
    private let hub: NodeEventHub
    /// The sequence of the last message handed out (the app's cursor, then each message's).
    private var last: Int64
    private var page: [StoredMessage] = []
    private var index = 0
    static let pageSize = 256

    init(store: Store, hub: NodeEventHub, after cursor: Int64) {
        self.store = store
        self.hub = hub
        self.last = cursor
    }

    /// The next stored message, waiting for one when the reader is at the end; `nil` once the node
    /// is shut down (after what was stored by then) or its store cannot be read.
    func next() async -> StoredMessage? {
        while true {
            if index < page.count {
                let m = page[index]
                index += 1
                last = m.sequence
                return m
            }
            // Read before the look: a message stored after the look is announced after `mark`.
            let mark = hub.yieldedCount
            guard let rows = try? store.read({ tx in try tx.messages.stored(afterSequence: last, limit: Self.pageSize) }) else { return nil }
            if !rows.isEmpty {
                (page, index) = (rows, 0)
                continue
            }
            // Everything stored before `mark` has been read: sleep until the node emits anything
            // after it (every stored message is announced, after its transaction committed).
            guard await hub.change(after: mark) != nil else { return nil }
        }
    }
}
