import Foundation
import InviteKit
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS
import InviteKitStore

/// `invitekit bench --node`: figures of the path apps run, `InviteKitNode.run()` with its store
/// on disk, over an in-memory relay (so the relay's own cost stays small and the same each run),
/// or over `--relay URL`.
package enum NodeBenchmarks {
    package struct Report {
        var floodEvents = 0
        var floodSeconds = 0.0
        var messageAfterFloodSeconds = 0.0
        var catchUpSeconds = 0.0
        var roundTripsMs: [Double] = []
        var joinMs: [Double] = []
        var commitMs: [Double] = []
        var commitMembers = 0
        var commitStateBytes = 0
        var treeChunkBytes = 0
        var commitsBeforeState = 0
        var treeBytes = 0
        var stateLoadMs: [Double] = []
        var stateSaveMs: [Double] = []
        var messageMs: [Double] = []
        var cliSendMs: [Double] = []
        var nodeSendMs: [Double] = []

        package init() {}

        package var lines: [(String, String)] { (floodEvents > 0 ? floodLines : []) + groupLines }
        var floodLines: [(String, String)] {
            [
                ("node: junk kind-445 events/s absorbed live by run() (flood of \(floodEvents); 2 nodes, relay, sender share the cores)",
                 String(format: "%.0f", Double(floodEvents) / max(floodSeconds, 1e-9))),
                ("node: real message in history after the live flood's end, s", String(format: "%.2f", messageAfterFloodSeconds)),
                ("node: junk kind-445 events/s rejected by one restarted run() (\(floodEvents) stored, then the message)",
                 String(format: "%.0f", Double(floodEvents) / max(catchUpSeconds, 1e-9))),
                ("node: message send → received through run(), median ms (\(roundTripsMs.count))", String(format: "%.1f", median(roundTripsMs))),
                // Includes the Welcome hold: one settlement-quiescence window after the Add's OK
                // (PROTOCOL §5.13, "Welcome hold").
                ("node: invite join through run(), join(url) call → joined, median ms (\(joinMs.count))", String(format: "%.1f", median(joinMs))),
            ]
        }
        package var groupLines: [(String, String)] {
            var out: [(String, String)] = []
            if !commitMs.isEmpty {
                out.append(("node: add commit processed and saved through run() at \(commitMembers) members, relay → memberAdded, median ms (\(commitMs.count))",
                            String(format: "%.1f", median(commitMs))))
                out.append(("node: group stored at \(commitMembers + commitMs.count) members after \(commitsBeforeState) commits: groups.state bytes (tree apart)",
                            "\(commitStateBytes)"))
                out.append(("node: and its tree's group_tree_chunks bytes", "\(treeChunkBytes)"))
                out.append(("node: both ÷ the ratchet tree's bytes (\(treeBytes))",
                            String(format: "%.2f", Double(commitStateBytes + treeChunkBytes) / Double(max(treeBytes, 1)))))
                out.append(("node: that group loaded (chunks → RatchetTree, MarmotGroup(serialized:apartTree:), every tree hash), median ms",
                            String(format: "%.1f", median(stateLoadMs))))
                out.append(("node: its save after a message (serializedWithoutTree(), chunks changed: none), median ms", String(format: "%.1f", median(stateSaveMs))))
            }
            if !messageMs.isEmpty {
                out.append(("node: message processed and saved through run() at \(commitMembers) members, relay → messageReceived, median ms (\(messageMs.count))",
                            String(format: "%.1f", median(messageMs))))
            }
            if !nodeSendMs.isEmpty {
                // The same step as the CLI row below without a process start or a home to open:
                // the send's transaction, then run() publishing it, until the relay's OK.
                out.append(("node: in-process InviteKitNode.send at \(commitMembers) members, call → relay OK (messageDelivered), median ms (\(nodeSendMs.count))",
                            String(format: "%.1f", median(nodeSendMs))))
            }
            if !cliSendMs.isEmpty {
                out.append(("node: `invitekit group send` wall time at \(commitMembers) members, process start → relay OK → exit, median ms (\(cliSendMs.count))",
                            String(format: "%.1f", median(cliSendMs))))
            }
            return out
        }

        private func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }
    }

    /// Over an in-memory relay, or with `relayURL` over that relay (WebSocket, one connection
    /// per node and one for the sender of the junk).
    package static func run(flood: Int, relayURL: String? = nil) async throws -> Report {
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("invitekit-node-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let memory = InMemoryRelay(url: "wss://bench.invitekit.invalid")
        let url = relayURL ?? memory.url
        let sender: any NostrRelayConnection = relayURL.map { WebSocketRelayClient(url: $0) } ?? memory
        let config = InviteKitNode.Configuration(relayTimeout: .seconds(10), idleInterval: .milliseconds(100), keyPackageLowWater: 0,
                                                 connector: { u in relayURL == nil ? memory as any NostrRelayConnection : WebSocketRelayClient(url: u) })
        func open(_ name: String) throws -> InviteKitNode {
            let home = StoreHome(directory: root + "/" + name)
            try InviteKitNode.initialize(home: home, relays: [url])
            return try InviteKitNode(home: home, configuration: config)
        }
        let ada = try open("ada"), dee = try open("dee")
        let runners = [ada, dee].map { $0.runInBackground() }
        defer { runners.forEach { $0.cancel() } }
        let group = try await ada.createGroup(name: "bench")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(60))
        var report = Report()

        // Joins: a fresh node's join(url) until its Welcome was processed, the admin's Add, its
        // OK, the Welcome hold and the Welcome's delivery included.
        for i in 0..<5 {
            let joiner = try open("joiner\(i)")
            let run = joiner.runInBackground()
            let start = ContinuousClock.now
            _ = try await joiner.join(invite.url, timeout: .seconds(60))
            report.joinMs.append(ms(ContinuousClock.now - start))
            run.cancel()
            await joiner.shutdown()
        }

        // Round trips: ada sends, dee's event stream reports it.
        for i in 0..<20 {
            let events = dee.events()
            let start = ContinuousClock.now
            _ = try await ada.send("ping \(i)", to: group.id)
            try await waitForMessage(events, "ping \(i)")
            report.roundTripsMs.append(ms(ContinuousClock.now - start))
        }

        // The flood: strangers' kind-445 events with the group's h tag, then one real message.
        // Well-formed as MIP-03 asks (base64 of a nonce, ciphertext and tag; the encoding tag),
        // so each passes every check up to the AEAD open, which fails.
        let rng = SeededRandom(seed: 445)
        // Dated ahead (within MIP-03's skew), so that a relay's newest-first catch-up sends
        // every junk event before the real messages.
        let strangers = (0..<8).map { _ in Secp256k1.PrivateKey(using: rng) }
        let ahead = UnixTime.now() + 240
        let junk = try (0..<flood).map { i in
            try EventTemplate(kind: 445, content: Base64.encode(rng.bytes(1024)), tags: [["h", group.nostrGroupID], ["encoding", "base64"]],
                              createdAt: ahead)
                .signed(by: strangers[i % strangers.count], using: rng)
        }
        let events = dee.events()
        let start = ContinuousClock.now
        // Up to 32 in flight, as a determined sender would.
        await withTaskGroup(of: Void.self) { tasks in
            var next = 0
            for e in junk {
                if next >= 32 { await tasks.next() }
                next += 1
                tasks.addTask { _ = await sender.publish(e, timeout: .seconds(30)) }
            }
        }
        let floodEnd = ContinuousClock.now
        if relayURL != nil { await sender.close() }
        _ = try await ada.send("after the flood", to: group.id)
        try await waitForMessage(events, "after the flood")
        report.floodEvents = flood
        report.floodSeconds = seconds(ContinuousClock.now - start)
        report.messageAfterFloodSeconds = seconds(ContinuousClock.now - floodEnd)

        // One node alone: dee stops, a message waits on the relay behind the whole flood, and
        // dee's restarted run() reads them all (nothing else runs meanwhile).
        runners[1].cancel()
        _ = await runners[1].result
        let delivered = ada.events()
        let offline = try await ada.send("after the restart", to: group.id)
        for await e in delivered { if case .messageDelivered(_, let id) = e, id == offline { break } }
        runners[0].cancel()
        _ = await runners[0].result
        let again = dee.events()
        let restart = ContinuousClock.now
        let rerun = dee.runInBackground()
        defer { rerun.cancel() }
        try await waitForMessage(again, "after the restart")
        report.catchUpSeconds = seconds(ContinuousClock.now - restart)
        // On stderr as soon as measured: the group phase that follows takes minutes.
        for (name, value) in report.floodLines { BenchLog.progress("\(name): \(value)") }
        return report
    }

    /// A node that is a member of a `size`-member group (built under the 64 KiB event budget,
    /// joined through its Welcome and tree chunks, stored as the node stores a joined group)
    /// receives `commits` add commits, then `messages` messages, from the admin through its relay:
    /// each timed from the relay's publish to the node's `memberAdded` or `messageReceived`, which
    /// follow the committed transaction. Then its stored state is measured (bytes against the
    /// tree's, save and load); with `relayURL` (a real relay), `invitekit group send` is run
    /// `cliSends` times on the node's home, each timed from process start to exit (relay `OK`).
    /// Before that, over either relay, the node itself sends `nodeSends` messages, each timed from
    /// ``InviteKitNode/send(_:to:)`` to its `messageDelivered` (the relay's `OK`).
    package static func groupThroughNode(size: Int, commits: Int, messages: Int, relayURL: String? = nil, cliSends: Int = 0, nodeSends: Int = 0,
                                 into report: inout Report) async throws {
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("invitekit-node-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let memory = InMemoryRelay(url: LargeGroupBenchmarks.relays[0])
        let url = relayURL ?? memory.url
        let relay: any NostrRelayConnection = relayURL.map { WebSocketRelayClient(url: $0) } ?? memory
        let built = try LargeGroupBenchmarks.Built(size: size, budget: .standard)
        let member = try built.join()
        BenchLog.progress("node: the \(size)-member group is built and joined; \(commits) commits and \(messages) messages through the node follow")
        guard let key = built.lastKey else { throw BenchFailure("the \(size)-member group has no last joiner") }
        let home = StoreHome(directory: root + "/member")
        try InviteKitNode.initialize(home: home, relays: [url], importing: key.rawRepresentation)
        let groupID = Hex.encode(member.state.groupID)
        // A joined group's row in the previous format (engine_version 2, tree inside the state):
        // the node reads it, and its first save writes it with the tree apart (version 3). The
        // row's version is not `serializationVersion`: since that became 3, a row so labelled
        // was read as "tree apart" with no chunks, and the node left the group unread.
        try Store.open(path: home.databasePath).write { tx in
            try tx.groups.save(StoredGroup(id: groupID, nostrGroupID: Hex.encode(member.nostrGroupID), name: member.groupData.name,
                                           engine: "marmot-mls", engineVersion: 2,
                                           state: member.serialized(), epoch: member.epoch, currentTag: nil, relays: [url],
                                           updatedAt: UnixTime.now()))
        }
        // The node lives in this call only: its home lock goes with it, so a CLI can open the home after.
        func drive() async throws -> MarmotGroup<MLSGroupState> {
            let node = try InviteKitNode(home: home, configuration: InviteKitNode.Configuration(
                relayTimeout: .seconds(5), idleInterval: .milliseconds(100), keyPackageLowWater: 0,
                connector: { u in relayURL == nil ? memory as any NostrRelayConnection : WebSocketRelayClient(url: u) }))
            let runner = node.runInBackground()
            let events = node.events()
            var admin = built.admin
            let rng = SeededRandom(seed: 1000)
            // The first commit also waits for run()'s subscription: not counted.
            for i in 0...commits {
                let now = UnixTime.now()
                let (kpEvent, _) = try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(using: rng), relays: [url], lastResort: false, now: now, rng: rng)
                let pending = try admin.commit(adding: [try KeyPackageValidator.validate(kpEvent, now: now)], now: now, rng: rng)
                let start = ContinuousClock.now
                _ = await relay.publish(pending.event, timeout: .seconds(5))
                for await e in events { if case .memberAdded(let g, _) = e, g == groupID { break } }
                if i > 0 { report.commitMs.append(ms(ContinuousClock.now - start)) }
                _ = try admin.confirmPublished(pending, acknowledgedBy: [url], now: now)
            }
            for i in 0..<messages {
                let text = "bench \(i)"
                let event = try admin.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: text, tags: []), rng: rng)
                let start = ContinuousClock.now
                _ = await relay.publish(event, timeout: .seconds(5))
                try await waitForMessage(events, text)
                report.messageMs.append(ms(ContinuousClock.now - start))
            }
            BenchLog.progress("node: commits and messages through run() done; \(nodeSends) in-process sends follow")
            for i in 0..<nodeSends {
                let start = ContinuousClock.now
                let id = try await node.send("in-process \(i)", to: groupID)
                for await e in events { if case .messageDelivered(_, let delivered) = e, delivered == id { break } }
                report.nodeSendMs.append(ms(ContinuousClock.now - start))
            }
            runner.cancel()
            _ = await runner.result
            await node.shutdown()
            return admin
        }
        let admin = try await drive()
        report.commitMembers = size
        report.commitsBeforeState = commits + 1
        let (row, chunks) = try Store.open(path: home.databasePath).read { tx in (try tx.groups.get(id: groupID), try tx.treeChunks.all(groupID: groupID)) }
        guard let stored = row?.state, row?.engineVersion == MarmotMLSGroup.engineVersion else {
            throw BenchFailure("the node did not store the group with its tree apart")
        }
        report.commitStateBytes = stored.count
        report.treeChunkBytes = chunks.reduce(0) { $0 + $1.count }
        report.treeBytes = admin.state.tree.tlsSerialized.count
        for _ in 0..<5 {
            var start = ContinuousClock.now
            let tree = try RatchetTree(storedChunks: chunks)
            let loaded = try MarmotGroup<MLSGroupState>(serialized: stored, apartTree: tree)
            report.stateLoadMs.append(ms(ContinuousClock.now - start))
            start = ContinuousClock.now
            _ = loaded.serializedWithoutTree()
            guard loaded.state.tree.storedChunks(changedSince: tree).isEmpty else { throw BenchFailure("an unchanged tree has chunks to save") }
            report.stateSaveMs.append(ms(ContinuousClock.now - start))
        }
        if relayURL != nil {
            await relay.close()
            for i in 0..<cliSends { report.cliSendMs.append(try cliSend(home: home, groupID: groupID, text: "cli \(i)")) }
        }
    }

    /// One `invitekit group send` on `home`, as a user runs it: a new process (this binary) that
    /// opens the home, sends, and exits once a relay acknowledged; wall time in ms.
    private static func cliSend(home: StoreHome, groupID: String, text: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["group", "send", "--home", home.directory, "--group", groupID, "--timeout", "10", text]
        process.standardOutput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ms(ContinuousClock.now - start)
        guard process.terminationStatus == 0 else { throw BenchFailure("invitekit group send exited \(process.terminationStatus)") }
        return elapsed
    }

    private static func waitForMessage(_ events: AsyncStream<NodeEvent>, _ text: String) async throws {
        for await e in events {
            if case .messageReceived(let m) = e, m.content == text { return }
        }
        throw BenchFailure("the node stopped before \"\(text)\" arrived")
    }

    static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
    static func ms(_ d: Duration) -> Double { seconds(d) * 1000 }
}
