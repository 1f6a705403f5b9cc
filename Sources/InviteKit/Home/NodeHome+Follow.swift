extension NodeHome {
    /// A group's history after `after` in order (one page of ``history(of:after:limit:)``), and
    /// with `follow` every message stored later too, read every `interval` until the consuming
    /// task is cancelled (`invitekit group read --follow`). Another process's node stores the
    /// messages; this reads the home without its lock, so it works while that node serves. Ends
    /// with ``InviteKitError`` (`group_not_found`, …) when the home cannot be read.
    public func messages(of groupID: String, after: StoredMessage? = nil, follow: Bool,
                         interval: Duration = .milliseconds(500)) -> AsyncThrowingStream<StoredMessage, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last = after
                do {
                    repeat {
                        let page = try history(of: groupID, after: last)
                        for message in page {
                            continuation.yield(message)
                            last = message
                        }
                        if follow && page.isEmpty { try? await Task.sleep(for: interval) }
                    } while follow && !Task.isCancelled
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
