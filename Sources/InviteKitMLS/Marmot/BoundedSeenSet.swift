/// The events a group has seen, for dropping replays before any work: at most `limit` entries,
/// the oldest forgotten first (issue 31, D4: the record no longer grows with every message).
///
/// Forgetting is safe: a replay older than the window is still refused further in, by the
/// epoch rules for commits and by the secret tree's used-generation rule for messages (RFC 9420
/// §9.4); it costs the work of reaching that check, never a second application.
struct BoundedSeenSet<Element: Hashable & Sendable>: Sendable {
    private(set) var order: [Element] = []
    private var members: Set<Element> = []
    let limit: Int

    init(limit: Int) { self.limit = limit }

    init<S: Sequence>(_ elements: S, limit: Int) where S.Element == Element {
        self.init(limit: limit)
        for e in elements { insert(e) }
    }

    func contains(_ e: Element) -> Bool { members.contains(e) }

    var count: Int { order.count }

    mutating func insert(_ e: Element) {
        guard members.insert(e).inserted else { return }
        order.append(e)
        if order.count > limit {
            let drop = order.count - limit
            for old in order.prefix(drop) { members.remove(old) }
            order.removeFirst(drop)
        }
    }
}
