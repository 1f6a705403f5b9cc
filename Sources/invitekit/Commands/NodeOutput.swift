import Foundation
import InviteKit
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

    static func flush(_ node: InviteKitNode, relays: [String]) async throws {
        let pool = RelayPool(urls: relays)
        try await node.flushOutbound(to: pool.relays)
        await pool.close()
    }

    /// Reads `read` from the home's database every 200 ms until `isFinal` holds or `timeout`
    /// passes; returns the last value read (`initial` if none was).
    static func poll<T>(_ home: StoreHome, timeout: Double, initial: T, read: (StoreTransaction) throws -> T,
                        until isFinal: (T) -> Bool) async throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        var value = initial
        while Date() < deadline {
            value = try readStore(home, read)
            if isFinal(value) { return value }
            try await Task.sleep(for: .milliseconds(200))
        }
        return value
    }

    /// A sent message's status once final (acked or failed), else its status at `timeout`.
    static func waitForDelivery(home: StoreHome, eventID: String, timeout: Double) async throws -> StoredMessage.Status {
        try await poll(home, timeout: timeout, initial: .pending, read: { tx in try tx.messages.get(eventID: eventID)?.status ?? .pending },
                       until: { $0 == .acked || $0 == .failed })
    }

    /// An own Commit's row once resolved (applied after a relay's `OK`, or rolled back); `waiting`
    /// at `timeout`.
    static func waitForCommit(home: StoreHome, eventID: String, timeout: Double) async throws -> PendingCommitRecord.Status {
        try await poll(home, timeout: timeout, initial: .waiting, read: { tx in try tx.pendingCommits.get(commitEventID: eventID)?.status ?? .waiting },
                       until: { $0 != .waiting })
    }

    /// An event's delivery over all relays once some relay acknowledged it or every delivery failed.
    static func waitForPublished(home: StoreHome, eventID: String, timeout: Double) async throws -> EventDeliverySummary {
        try await poll(home, timeout: timeout, initial: .queued, read: { tx in OutboundStateMachine.summary(try tx.outbound.deliveries(eventID: eventID)) },
                       until: { $0 == .acked || $0 == .failed })
    }
}
