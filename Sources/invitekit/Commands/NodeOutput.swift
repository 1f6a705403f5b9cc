import Foundation
import InviteKit
import InviteKitMLS
import InviteKitStore

/// Output and store reads shared by the node commands.
enum NodeOutput {
    /// One line: JSON with sorted keys, or `text` with control characters escaped (it carries
    /// untrusted strings: message contents, group names, relay messages).
    static func emit(_ json: Bool, _ fields: [String: String], text: String) {
        if json {
            var o = JSONOutput()
            for (k, v) in fields.sorted(by: { $0.key < $1.key }) { o.add(k, v) }
            StdIO.printLine(o.string)
        } else {
            StdIO.printLine(TerminalText.escape(text))
        }
    }

    /// Reads the home's database without its lock, so it works while `serve` runs (WAL readers).
    static func readStore<T>(_ home: StoreHome, _ body: (StoreTransaction) throws -> T) throws -> T {
        guard home.exists else { throw CLIFailure("no identity in \(home.directory) (run `invitekit init`)") }
        return try Store.open(path: home.databasePath).read(body)
    }

    static func npub(_ key: [UInt8]) -> String {
        (try? Secp256k1.XOnlyPublicKey(rawRepresentation: key)).map { NIP19.npub($0) } ?? Hex.encode(key)
    }

    static func time(_ t: Int64) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    /// The instant `seconds` from now, for `--timeout`: a bound the whole command keeps.
    static func deadline(after seconds: Double) throws -> ContinuousClock.Instant {
        guard seconds.isFinite, seconds >= 0, seconds <= 31_536_000 else {
            throw CLIFailure("--timeout must be a number of seconds between 0 and 31536000", exitCode: 64)
        }
        return ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    }

    /// How a command's own node runs: no KeyPackage top-up (that is `serve`'s job), and no
    /// relay wait past the command's deadline.
    static func commandConfiguration(deadline: ContinuousClock.Instant, budget: EventBudget = .standard) -> InviteKitNode.Configuration {
        let left = deadline - ContinuousClock.now
        return InviteKitNode.Configuration(relayTimeout: max(.milliseconds(200), min(.relayTimeout, left)), idleInterval: .milliseconds(200),
                                           keyPackageLowWater: 0, eventBudget: budget)
    }

    /// Reads `read` from the home's database until `isFinal` holds or `deadline` passes, and
    /// returns the last value. With `driving`, that node's runtime runs meanwhile (this process
    /// holds the home) and each of its events triggers a read at once; without, the `serve`
    /// holding it does the work. Either way a read also happens every 50 ms.
    static func wait<T>(_ home: StoreHome, driving node: InviteKitNode? = nil, deadline: ContinuousClock.Instant,
                        read: (StoreTransaction) throws -> T, until isFinal: (T) -> Bool) async throws -> T {
        let store = try Store.open(path: home.databasePath)
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let watcher = node.map { n in
            let events = n.events()
            return Task { for await _ in events { wake.yield() } }
        }
        let runner = node.map { n in Task { try await n.run() } }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(50))
                wake.yield()
            }
        }
        defer {
            runner?.cancel()
            watcher?.cancel()
            ticker.cancel()
            wake.finish()
        }
        var next = wakes.makeAsyncIterator()
        while true {
            let value = try store.read(read)
            if isFinal(value) || ContinuousClock.now >= deadline { return value }
            guard await next.next() != nil else { return value }
        }
    }
}
