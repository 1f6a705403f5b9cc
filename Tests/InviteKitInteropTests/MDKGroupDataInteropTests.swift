import XCTest
import Foundation
import InviteKit
import InviteKitTestSupport

/// Rename and admins between an InviteKit node and MDK 0.8.0 in a MIP-profile group over the real
/// nostr-relay (issue 32; PROTOCOL §5.16): MDK reads the node's Commits, and the node reads MDK's
/// `update_group_data` Commits. Nothing passes between the two except through the relay.
final class MDKGroupDataInteropTests: XCTestCase {
    private var worker: MDKWorker!
    private var relay: RelayProcess!
    private let root = TemporaryDirectory(prefix: "invitekit-mdk-group-data")

    override func setUpWithError() throws {
        worker = try MDKWorker.startOrSkip()
        try RelayProcess.requireRelay()
        relay = try RelayProcess()
        try relay.start()
    }

    override func tearDown() {
        relay?.tearDown()
        worker = nil
    }

    private func waitFor(_ seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// MDK processes every kind-445 event of the group it has not seen, in MIP-03 order.
    private func mdkReads(_ mdk: MDKPeer, _ pool: RelayPool, _ nostrGroupID: String, seen: inout Set<String>) async throws -> [InteropOutcome] {
        let events = await pool.fetch([NostrFilter(kinds: [445]).tag("h", [nostrGroupID])], timeout: .seconds(5)).events
        var outcomes: [InteropOutcome] = []
        for e in events.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) where !seen.contains(e.id) {
            seen.insert(e.id)
            outcomes.append(try mdk.process(e))
        }
        return outcomes
    }

    /// MDK's view of the group: its name and admins (hex keys).
    private func mdkGroupData(_ mdk: MDKPeer, _ nostrGroupID: String) throws -> (name: String, admins: Set<String>) {
        let group = try mdk.groupInfo(nostrGroupID)["group"] as? [String: Any] ?? [:]
        return (group["name"] as? String ?? "", Set(group["admin_pubkeys"] as? [String] ?? []))
    }

    /// MDK publishes its Commit, then merges it, as an MDK app does once a relay took it.
    private func publishAndMerge(_ change: InteropChange, mdk: MDKPeer, group: String, pool: RelayPool, seen: inout Set<String>) async throws {
        let commit = try XCTUnwrap(change.commit)
        seen.insert(commit.id)
        let published = await pool.publish(commit)
        XCTAssertEqual(published.successCount, 1)
        try mdk.mergePendingCommit(group: group)
    }

    func testRenameAndAdminsBothWaysWithMDK08() async throws {
        let home = StoreHome(directory: root.file("ada"))
        try InviteKitNode.initialize(home: home, relays: [relay.url], rng: SeededRandom(seed: 21))
        let ada = try InviteKitNode(home: home, configuration: InviteKitNode.Configuration(relayTimeout: .seconds(10), idleInterval: .milliseconds(100),
                                                                                          keyPackageLowWater: 0))
        let run = Task { try await ada.run() }
        defer { run.cancel() }
        let group = try await ada.createGroup(name: "mixed", profile: .mip)
        let pool = RelayPool(urls: [relay.url])
        let mdk = try worker.newPeer("mdk")
        let mdkKey = try NostrKeys.parsePublicKey(mdk.pubkey)
        var seen = Set<String>()

        // MDK publishes a KeyPackage; Ada adds MDK by its key and MDK joins from the Welcome.
        let kpPublished = await pool.publish(try mdk.createKeyPackage(relays: [relay.url]).event)
        XCTAssertEqual(kpPublished.successCount, 1)
        _ = try await ada.waitForCommit(try await ada.addMember(mdkKey, to: group.id), timeout: .seconds(30))
        var wraps: [NostrEvent] = []
        let welcomed = try await waitFor {
            wraps = await pool.fetch([GiftWrapCatchUp.filter(for: mdkKey)], timeout: .seconds(5)).events
            return !wraps.isEmpty
        }
        XCTAssertTrue(welcomed, "a Welcome for MDK")
        XCTAssertEqual(try mdk.join(welcome: try XCTUnwrap(wraps.first)), group.nostrGroupID)
        _ = try await mdkReads(mdk, pool, group.nostrGroupID, seen: &seen)

        // InviteKit → MDK: Ada renames, then makes MDK an admin; MDK reads both Commits.
        _ = try await ada.waitForCommit(try await ada.renameGroup(group.id, to: "renamed by ada"), timeout: .seconds(30))
        _ = try await ada.waitForCommit(try await ada.promoteAdmin(mdkKey, in: group.id), timeout: .seconds(30))
        let read = try await mdkReads(mdk, pool, group.nostrGroupID, seen: &seen)
        XCTAssertEqual(read, [.commit, .commit], "MDK applies both Commits")
        var mdkView = try mdkGroupData(mdk, group.nostrGroupID)
        XCTAssertEqual(mdkView.name, "renamed by ada")
        XCTAssertEqual(mdkView.admins, [ada.publicKey.hex, mdk.pubkey])

        // MDK → InviteKit: MDK renames, then takes Ada's admin rights; Ada's node applies both.
        let (adaLog, adaTask) = await eventLog(ada)
        defer { adaTask.cancel() }
        try await publishAndMerge(try mdk.updateGroupData(group: group.nostrGroupID, name: "renamed by mdk"), mdk: mdk, group: group.nostrGroupID,
                                  pool: pool, seen: &seen)
        let renamed = try await waitFor { try await ada.group(group.id).name == "renamed by mdk" }
        XCTAssertTrue(renamed, "Ada sees MDK's rename")
        try await publishAndMerge(try mdk.updateGroupData(group: group.nostrGroupID, admins: [mdk.pubkey]), mdk: mdk, group: group.nostrGroupID,
                                  pool: pool, seen: &seen)
        let demoted = try await waitFor { try await ada.group(group.id).role != .admin }
        XCTAssertTrue(demoted, "Ada sees MDK's admin change")
        let admins = try await ada.members(of: group.id).members.filter(\.isAdmin).map(\.publicKey)
        XCTAssertEqual(admins, [mdkKey])
        let events = await adaLog.events
        XCTAssertTrue(events.contains { if case .groupProfileChanged(group.id, "renamed by mdk", _) = $0 { return true } else { return false } })
        XCTAssertTrue(events.contains { if case .adminsChanged(group.id, [mdkKey]) = $0 { return true } else { return false } })
        do {
            _ = try await ada.renameGroup(group.id, to: "ada's again")
            XCTFail("a demoted member renames")
        } catch {
            XCTAssertEqual(error.code, .notPermitted)
        }
        mdkView = try mdkGroupData(mdk, group.nostrGroupID)
        XCTAssertEqual(mdkView.admins, [mdk.pubkey])
        await pool.close()
    }

    /// Every event a node emits from now on.
    private actor EventLog {
        private(set) var events: [NodeEvent] = []
        func add(_ e: NodeEvent) { events.append(e) }
    }

    private func eventLog(_ n: InviteKitNode) async -> (EventLog, Task<Void, Never>) {
        let log = EventLog()
        let stream = n.events(bufferingNewest: 1024)
        let task = Task { for await e in stream { await log.add(e) } }
        return (log, task)
    }
}
