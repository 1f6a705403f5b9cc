/// The in-memory transport of a scenario (MDK's packet bus, `bus.rs` at v0.9.14, in behaviour):
/// published messages wait in a queue; `deliver_all` copies each to every other client's mailbox
/// (a Welcome only to its recipient) and forgets it, so a partitioned-away client never sees it.
/// Faults act on the queue: drop, duplicate, withhold and release, reorder.
struct ConformanceBus: Sendable {
    private(set) var queue: [ConformanceMessage] = []
    private var withheld: [String: [ConformanceMessage]] = [:]
    private(set) var mailboxes: [String: [ConformanceMessage]] = [:]
    var partition: Set<String>?
    private var serial = 0

    init(clients: [String]) {
        for c in clients { mailboxes[c] = [] }
    }

    mutating func publish(sender: String, payload: ConformanceMessage.Payload, messageClass: ConformanceMessage.Class,
                          publication: String?, action: String) {
        serial += 1
        queue.append(ConformanceMessage(serial: serial, sender: sender, payload: payload, messageClass: messageClass,
                                        publication: publication, action: action))
    }

    mutating func deliverAll() {
        let batch = queue
        queue = []
        for m in batch {
            for client in mailboxes.keys.sorted() where client != m.sender {
                if let allow = partition, !allow.contains(client) { continue }
                if case let .welcome(_, recipient, _) = m.payload, recipient != client { continue }
                mailboxes[client, default: []].append(m)
            }
        }
    }

    mutating func takeMailbox(_ client: String) -> [ConformanceMessage] {
        defer { mailboxes[client] = [] }
        return mailboxes[client] ?? []
    }

    func mailboxCount(_ client: String) -> Int { mailboxes[client]?.count ?? 0 }

    /// Applies `selector` to the queued messages; `occurrence` picks one of several matches.
    private func indices(_ selector: [String: Any]) -> [Int] {
        let all = queue.indices.filter { queue[$0].matches(selector) }
        if let n = selector["occurrence"] as? Int { return n < all.count ? [all[n]] : [] }
        return all
    }

    mutating func omit(_ selector: [String: Any]) -> Int {
        let hit = Set(indices(selector))
        queue = queue.enumerated().filter { !hit.contains($0.offset) }.map(\.element)
        return hit.count
    }

    mutating func duplicate(_ selector: [String: Any]) -> Int {
        let hit = indices(selector)
        for i in hit.reversed() { queue.insert(queue[i], at: i + 1) }
        return hit.count
    }

    mutating func withhold(_ selector: [String: Any], label: String) -> Int {
        let hit = Set(indices(selector))
        withheld[label, default: []] += queue.enumerated().filter { hit.contains($0.offset) }.map(\.element)
        queue = queue.enumerated().filter { !hit.contains($0.offset) }.map(\.element)
        return hit.count
    }

    mutating func release(_ label: String) -> Bool {
        guard let held = withheld.removeValue(forKey: label) else { return false }
        queue += held
        return true
    }

    /// Moves the messages each selector names, in the selectors' order, to the front of the queue.
    mutating func reorder(_ selectors: [[String: Any]]) -> Bool {
        var front: [ConformanceMessage] = []
        for s in selectors {
            guard let i = queue.firstIndex(where: { $0.matches(s) }) else { return false }
            front.append(queue.remove(at: i))
        }
        queue = front + queue
        return true
    }
}
