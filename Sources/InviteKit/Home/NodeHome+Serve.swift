import Foundation

/// Serving a home: the process whose node owns it takes the other processes' requests.
extension NodeHome {
    /// Runs `node` (``InviteKitNode/run()``) and serves the home meanwhile, until the calling
    /// task is cancelled or the node shut down: writes the serve marker (this process's pid, so
    /// ``isServed`` holds for other processes), calls `onReady`, takes every request handed through
    /// the inbox at once (not after a relay round), runs it on `node` and answers it. A request
    /// that may wait on relays (a membership change, a multi-member add) runs in a task of its
    /// own, its `.taken` mark refreshed every ``heartbeatInterval``, so the requests behind it are
    /// answered meanwhile. `onRequests` gets how many requests each look took. The marker is
    /// removed when it returns.
    ///
    /// Throws `not_permitted` (`foreign_home`) for a node of another home, `home_unavailable`
    /// (`inbox_unusable`) when `HOME/inbox` is not a private directory, and what ``InviteKitNode/run()``
    /// throws.
    public func serve(_ node: InviteKitNode, onReady: @Sendable () -> Void = {},
                      onRequests: @escaping @Sendable (Int) -> Void = { _ in }) async throws(InviteKitError) {
        guard node.home == home else { throw InviteKitError(.notPermitted, underlyingCode: "foreign_home", context: "the node opened another home") }
        try NodeHomeFiles.preparePrivateDirectory(inbox)
        try NodeHomeFiles.write(Array("\(getpid())\n".utf8), to: serveMarker)
        defer { unlink(serveMarker) }
        onReady()
        let taker = Task {
            while !Task.isCancelled {
                let taken = await drain(node)
                if taken > 0 { onRequests(taken) }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        // The node runs until this task is cancelled (handed on to the loop) or the node shut down.
        let runner = node.runInBackground()
        let outcome = await withTaskCancellationHandler { await runner.result } onCancel: { runner.cancel() }
        taker.cancel()
        await taker.value
        if case .failure(let error) = outcome { throw InviteKitError.from(error) }
    }

    /// Takes every waiting request (an atomic rename, so a request withdrawn at the same moment
    /// is not taken), runs it and answers. Returns how many it took.
    func drain(_ node: InviteKitNode) async -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: inbox) else { return 0 }
        var n = 0
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let base = (inbox as NSString).appendingPathComponent(String(name.dropLast(5)))
            guard rename(base + ".json", base + ".taken") == 0 else { continue }
            n += 1
            guard let data = NodeHomeFiles.read(base + ".taken"),
                  let fields = (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: String],
                  let request = NodeHomeRequest(fields: fields) else {
                answer(.failure(InviteKitError(.unknown, underlyingCode: "malformed_request", context: "malformed request")), base: base)
                continue
            }
            if request.isLong {
                Task { await run(request, base: base, on: node) }
            } else {
                await run(request, base: base, on: node)
            }
        }
        return n
    }

    /// Runs a taken request and answers it; meanwhile `<id>.taken` is touched every
    /// ``heartbeatInterval``, so the waiting process knows the server is still at it.
    private func run(_ request: NodeHomeRequest, base: String, on node: InviteKitNode) async {
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.heartbeatInterval)
                utimes(base + ".taken", nil)
            }
        }
        defer { heartbeat.cancel() }
        let result: Result<String, InviteKitError>
        do throws(InviteKitError) { result = .success(try await node.perform(request)) } catch { result = .failure(error) }
        answer(result, base: base)
    }

    /// Writes `<id>.done` and removes the `.taken` mark. An answer that cannot be written leaves
    /// the mark to go stale: the waiting process reports the request abandoned.
    private func answer(_ result: Result<String, InviteKitError>, base: String) {
        do throws(InviteKitError) { try NodeHomeFiles.write(NodeHomeAnswer.encode(result), to: base + ".done") } catch { return }
        unlink(base + ".taken")
    }
}
