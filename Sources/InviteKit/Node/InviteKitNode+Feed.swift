import InviteKitStore

extension InviteKitNode {
    /// Every message stored after `cursor`, then each message as it is stored: received ones,
    /// own ones (queued by ``send(_:to:)``), and those a buffered event yielded later, of every
    /// group, each exactly once, in the order the node stored them.
    ///
    /// The cursor is the app's and durable: `StoredMessage.sequence` of the last message it
    /// handled (`0` for everything). Kept in the same transaction as what the app did with the
    /// message, it makes the feed exactly-once across a crash of either process: a restart
    /// resumes with `feed(since: cursor)`, with no gap and no repeat. The sequence only grows and
    /// is assigned when a message is stored (docs/storage.md §6), so a message buffered until a
    /// later Commit comes after what was stored meanwhile, never before the cursor.
    ///
    /// Order: storage order. Live, that is each relay's order, which keeps one sender's
    /// messages in the order sent. On a catch-up (a start, a reconnect) ``run()`` hands the
    /// stored events of the relays to the groups oldest first (by `created_at`), so one sender's
    /// messages of different seconds are stored in the order sent; within one second the
    /// relay's order stands (Nostr timestamps have seconds only).
    ///
    /// The stream reads pages from the store as the app iterates (nothing piles up in memory),
    /// needs no ``run()`` to read history, and ends after ``shutdown()`` once it delivered what
    /// was stored by then. Delivery status changes of own messages are not repeated here: see
    /// ``waitForDelivery(of:timeout:)`` and ``NodeEvent/messageDelivered(groupID:eventID:)``.
    public nonisolated func feed(since cursor: Int64 = 0) -> AsyncStream<StoredMessage> {
        let reader = NodeFeedReader(store: store, hub: hub, after: cursor)
        return AsyncStream(unfolding: { await reader.next() })
    }
}
