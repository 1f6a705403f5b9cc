/// Waiting on the node's event stream for an answer, with an optional deadline: the one race of
/// "an event decides it" against "time is up" that the node's waiting calls share.
enum NodeEventWait {
    /// The first non-`nil` answer `decide` gives to an event of `events`; `nil` when `timeout`
    /// passes or the stream ends first.
    static func first<T: Sendable>(in events: AsyncStream<NodeEvent>, timeout: Duration?,
                                   _ decide: @escaping @Sendable (NodeEvent) async -> T?) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask {
                for await e in events { if let answer = await decide(e) { return answer } }
                return nil
            }
            if let timeout { group.addTask { try? await Task.sleep(for: timeout); return nil } }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
