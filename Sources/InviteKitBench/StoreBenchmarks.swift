import Foundation
import InviteKit
import InviteKitStore

/// `invitekit bench --store`: the durable store's figures on this machine, on a real on-disk
/// database (WAL, `synchronous = FULL` except where `Store.Durability.deferred` says), each
/// state change its own transaction.
package enum StoreBenchmarks {
    package struct Report {
        package var decisions = 0
        package var decisionsPerSecond = 0.0
        package var decisionsWithReplyPerSecond = 0.0
        package var messages = 0
        package var messagesPerSecond = 0.0
        package var messagesImmediatePerSecond = 0.0
        package var messagesBatchedPerSecond = 0.0
        package var catchUpCount = 0
        package var catchUpSkipped = 0
        package var catchUpSeconds = 0.0
        package var catchUpPeakGrowthKiB = 0
        package var coldCatchUpSeconds = 0.0
        package var coldCatchUpPeakGrowthKiB = 0
        package var peakRSSKiB = 0

        package var lines: [(String, String)] {
            [("join-request decisions/s (storage, 1 tx each)", String(format: "%.0f", decisionsPerSecond)),
             ("join-request decisions/s (+ gift-wrapped reply)", String(format: "%.0f", decisionsWithReplyPerSecond)),
             ("messages/s (1 tx each, deferred sync)", String(format: "%.0f", messagesPerSecond)),
             ("messages/s (1 tx each, immediate sync)", String(format: "%.0f", messagesImmediatePerSecond)),
             ("messages/s (100 per tx)", String(format: "%.0f", messagesBatchedPerSecond)),
             ("catch-up \(catchUpCount) processed wraps: s", String(format: "%.2f (skipped %d)", catchUpSeconds, catchUpSkipped)),
             ("catch-up peak RSS growth KiB", "\(catchUpPeakGrowthKiB)"),
             ("cold catch-up \(catchUpCount) wraps (unwrap+record): s", String(format: "%.2f", coldCatchUpSeconds)),
             ("cold catch-up peak RSS growth KiB", "\(coldCatchUpPeakGrowthKiB)"),
             ("process peak RSS KiB", "\(peakRSSKiB)")]
        }
    }

    package static func run(count: Int, decisions: Int = 1000, messages: Int = 5000) throws -> Report {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("invitekit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var report = Report()
        let rng = SeededRandom(seed: 42)
        let inviter = Secp256k1.PrivateKey(using: rng)
        let joiner = Secp256k1.PrivateKey(using: rng)
        let store = try Store.open(path: (dir as NSString).appendingPathComponent("bench.sqlite"))
        let payload = SecureBytes(copying: rng.bytes(2048))
        let commitJSON = String(repeating: "c", count: 2048)
        try store.write { tx in
            try tx.groups.save(StoredGroup(id: "g", nostrGroupID: "n", name: "bench", engine: "bench", engineVersion: 1,
                                           state: payload, epoch: 0, currentTag: "t", relays: ["ws://a", "ws://b"], updatedAt: 0))
        }

        // Decisions: accept (record, burn the tag, keep the pending commit, queue the commit) or
        // reject (record, queue the reply), alternately; one durable transaction each.
        report.decisions = decisions
        report.decisionsPerSecond = Double(decisions) / (try time {
            for i in 0..<decisions {
                try store.write { tx in
                    _ = try tx.processedRequests.record(ProcessedRequest(rumorID: "r\(i)", wrapID: "w\(i)", outcome: i % 2 == 0 ? "accepted" : "rejected",
                                                                         groupID: "g", processedAt: Int64(i)))
                    if i % 2 == 0 {
                        _ = try tx.consumedTags.consume("k\(i)", requestID: "r\(i)", now: Int64(i))
                        try tx.pendingCommits.insert(PendingCommitRecord(commitEventID: "c\(i)", groupID: "g", epoch: 0, requestID: "r\(i)",
                                                                         payload: payload, createdAt: Int64(i)))
                        try tx.outbound.enqueue(eventID: "c\(i)", eventJSON: commitJSON, kind: 445, purpose: "commit", relays: ["ws://a", "ws://b"], now: Int64(i))
                    } else {
                        try tx.outbound.enqueue(eventID: "e\(i)", eventJSON: commitJSON, kind: 1059, purpose: "join_error", relays: ["ws://a"], now: Int64(i))
                    }
                }
            }
        })
        let replies = max(decisions / 4, 1)
        report.decisionsWithReplyPerSecond = Double(replies) / (try time {
            for i in 0..<replies {
                let reply = try GiftWrap.wrap(template: EventTemplate(kind: GiftWrap.chatMessageKind, content: "invite_join_error", createdAt: 1_700_000_000),
                                              from: inviter, to: joiner.publicKey, now: 1_700_000_000, using: rng)
                try store.write { tx in
                    _ = try tx.processedRequests.record(ProcessedRequest(rumorID: "rr\(i)", wrapID: "rw\(i)", outcome: "rejected",
                                                                         groupID: "g", processedAt: Int64(i)))
                    try tx.outbound.enqueue(eventID: reply.id, eventJSON: reply.jsonString, kind: reply.kind, purpose: "join_error",
                                            relays: ["ws://a"], now: Int64(i))
                }
            }
        })

        // Messages: received ones, one transaction each as the node writes them (deferred sync:
        // `Store.Durability`), the same with a sync per commit, then 100 per transaction.
        report.messages = messages
        let sender = [UInt8](repeating: 1, count: 32)
        func message(_ i: Int) -> StoredMessage {
            StoredMessage(eventID: String(format: "%064x", i), groupID: "g", sender: sender, createdAt: Int64(i), kind: MarmotProfile.chatMessageKind,
                          content: "message number \(i) with a little text in it", outgoing: false, status: .received)
        }
        report.messagesPerSecond = Double(messages) / (try time {
            for i in 0..<messages { try store.write(durability: .deferred) { tx in _ = try tx.messages.insert(message(i)) } }
        })
        report.messagesImmediatePerSecond = Double(messages) / (try time {
            for i in 0..<messages { try store.write { tx in _ = try tx.messages.insert(message(messages + i)) } }
        })
        report.messagesBatchedPerSecond = Double(messages) / (try time {
            for page in stride(from: 0, to: messages, by: 100) {
                try store.write { tx in for i in page..<min(page + 100, messages) { _ = try tx.messages.insert(message(2 * messages + i)) } }
            }
        })

        // Catch-up: `count` gift wraps streamed from disk (as a relay's catch-up delivers them, no
        // `since`), in pages of 500. Cold: each is unwrapped and recorded. Warm (the restart):
        // each is skipped by its wrap id without decrypting.
        report.catchUpCount = count
        let wrapsPath = (dir as NSString).appendingPathComponent("wraps.jsonl")
        try writeWraps(count: count, to: wrapsPath, from: joiner, to: inviter, rng: rng)
        let coldStore = try Store.open(path: (dir as NSString).appendingPathComponent("cold.sqlite"))
        var before = BenchRunner.peakRSSKiB()
        report.coldCatchUpSeconds = try time {
            try streamPages(wrapsPath) { page in
                let gifts = page.compactMap { try? GiftWrap.unwrap($0, recipient: inviter) }
                try coldStore.write { tx in
                    for (wrap, gift) in zip(page, gifts) {
                        _ = try tx.processedRequests.record(ProcessedRequest(rumorID: gift.rumor.id, wrapID: wrap.id, outcome: "ignored",
                                                                             groupID: nil, processedAt: 0))
                    }
                }
            }
        }
        report.coldCatchUpPeakGrowthKiB = max(0, BenchRunner.peakRSSKiB() - before)
        before = BenchRunner.peakRSSKiB()
        var skipped = 0
        report.catchUpSeconds = try time {
            try streamPages(wrapsPath) { page in
                try coldStore.read { tx in
                    for wrap in page where try tx.processedRequests.contains(wrapID: wrap.id) { skipped += 1 }
                }
            }
        }
        report.catchUpSkipped = skipped
        report.catchUpPeakGrowthKiB = max(0, BenchRunner.peakRSSKiB() - before)
        report.peakRSSKiB = BenchRunner.peakRSSKiB()
        return report
    }

    private static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        return max(Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, 1e-9)
    }

    private static func writeWraps(count: Int, to path: String, from sender: Secp256k1.PrivateKey, to recipient: Secp256k1.PrivateKey,
                                   rng: RandomSource) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw BenchFailure("cannot create \(path)") }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? out.close() }
        let key = try NIP44.ConversationKey(privateKey: sender, publicKey: recipient.publicKey)
        for i in 0..<count {
            let rumor = EventTemplate(kind: GiftWrap.chatMessageKind, content: "join request \(i)", createdAt: 1_700_000_000 + Int64(i)).rumor(pubkey: sender.publicKey)
            let wrap = try GiftWrap.wrap(rumor, from: sender, to: recipient.publicKey, sealKey: key, now: 1_700_000_000, using: rng)
            try out.write(contentsOf: Data(wrap.jsonBytes + [0x0A]))
        }
    }

    /// Reads `path` line by line in 64 KiB chunks and hands out pages of 500 parsed events, so
    /// memory stays bounded by a page whatever the count.
    private static func streamPages(_ path: String, pageSize: Int = 500, _ body: ([NostrEvent]) throws -> Void) throws {
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? input.close() }
        var pending: [UInt8] = []
        var page: [NostrEvent] = []
        page.reserveCapacity(pageSize)
        func flushLine(_ line: ArraySlice<UInt8>) throws {
            guard !line.isEmpty else { return }
            page.append(try NostrEvent(json: Array(line)))
            if page.count == pageSize { try body(page); page.removeAll(keepingCapacity: true) }
        }
        while let chunk = try input.read(upToCount: 64 * 1024), !chunk.isEmpty {
            pending.append(contentsOf: chunk)
            var start = pending.startIndex
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                try flushLine(pending[start..<nl])
                start = nl + 1
            }
            pending.removeSubrange(..<start)
        }
        try flushLine(pending[...])
        if !page.isEmpty { try body(page) }
    }
}
