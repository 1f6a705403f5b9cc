import Foundation
import InviteKit
import InviteKitStore

/// Output and store reads shared by the node commands.
enum NodeOutput {
    /// One line: JSON with sorted keys, or `text`.
    static func emit(_ json: Bool, _ fields: [String: String], text: String) {
        if json {
            var o = JSONOutput()
            for (k, v) in fields.sorted(by: { $0.key < $1.key }) { o.add(k, v) }
            StdIO.printLine(o.string)
        } else {
            StdIO.printLine(text)
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

    /// Polls the store until the message's status is final (acked or failed) or `timeout` passes.
    static func waitForDelivery(home: StoreHome, eventID: String, timeout: Double) async throws -> StoredMessage.Status {
        let deadline = Date().addingTimeInterval(timeout)
        var status = StoredMessage.Status.pending
        while Date() < deadline {
            status = try readStore(home) { tx in try tx.messages.get(eventID: eventID)?.status } ?? .pending
            if status == .acked || status == .failed { return status }
            try await Task.sleep(for: .milliseconds(200))
        }
        return status
    }

    /// Polls the store until an own Commit is resolved (applied after a relay's `OK`, or rolled
    /// back) or `timeout` passes; `waiting` then.
    static func waitForCommit(home: StoreHome, eventID: String, timeout: Double) async throws -> PendingCommitRecord.Status {
        let deadline = Date().addingTimeInterval(timeout)
        var status = PendingCommitRecord.Status.waiting
        while Date() < deadline {
            status = try readStore(home) { tx in try tx.pendingCommits.get(commitEventID: eventID)?.status } ?? .waiting
            if status != .waiting { return status }
            try await Task.sleep(for: .milliseconds(200))
        }
        return status
    }

    /// Polls the outbound queue until some relay acknowledged `eventID` or every delivery failed.
    static func waitForPublished(home: StoreHome, eventID: String, timeout: Double) async throws -> EventDeliverySummary {
        let deadline = Date().addingTimeInterval(timeout)
        var summary = EventDeliverySummary.queued
        while Date() < deadline {
            summary = try readStore(home) { tx in OutboundStateMachine.summary(try tx.outbound.deliveries(eventID: eventID)) }
            if summary == .acked || summary == .failed { return summary }
            try await Task.sleep(for: .milliseconds(200))
        }
        return summary
    }
}
