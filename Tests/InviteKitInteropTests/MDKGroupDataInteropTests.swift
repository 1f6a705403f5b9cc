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
        let welcomed = await Poll.awaiting {
            wraps = await pool.fetch([GiftWrapCatchUp.filter(for: mdkKey)], timeout: .seconds(5)).events
            return !wraps.isEmpty
        }
        XCTAssertTrue(welcomed, "a Welcome for MDK")
        XCTAssertEqual(try mdk.join(welcome: try XCTUnwrap(wraps.first)), group.nostrGroupID)
        _ = try await mdk.readGroupEvents(from: pool, group: group.nostrGroupID, seen: &seen)

        // InviteKit → MDK: Ada renames, then makes MDK an admin; MDK reads each Commit as it
        // comes (two in one second may sort out of epoch order, and MDK 0.8 buffers nothing).
        _ = try await ada.waitForCommit(try await ada.renameGroup(group.id, to: "renamed by ada"), timeout: .seconds(30))
        let renameRead = try await mdk.readGroupEvents(from: pool, group: group.nostrGroupID, seen: &seen)
        XCTAssertEqual(renameRead, [.commit], "MDK applies the rename")
        _ = try await ada.waitForCommit(try await ada.promoteAdmin(mdkKey, in: group.id), timeout: .seconds(30))
        let promoteRead = try await mdk.readGroupEvents(from: pool, group: group.nostrGroupID, seen: &seen)
        XCTAssertEqual(promoteRead, [.commit], "MDK applies the promotion")
        var mdkView = try mdkGroupData(mdk, group.nostrGroupID)
        XCTAssertEqual(mdkView.name, "renamed by ada")
        XCTAssertEqual(mdkView.admins, [ada.publicKey.hex, mdk.pubkey])

        // MDK → InviteKit: MDK renames, then takes Ada's admin rights; Ada's node applies both.
        try await publishAndMerge(try mdk.updateGroupData(group: group.nostrGroupID, name: "renamed by mdk"), mdk: mdk, group: group.nostrGroupID,
                                  pool: pool, seen: &seen)
        let renamed = try await Poll.awaiting { try await ada.group(group.id).name == "renamed by mdk" }
        XCTAssertTrue(renamed, "Ada sees MDK's rename")
        try await publishAndMerge(try mdk.updateGroupData(group: group.nostrGroupID, admins: [mdk.pubkey]), mdk: mdk, group: group.nostrGroupID,
                                  pool: pool, seen: &seen)
        let demoted = try await Poll.awaiting { try await ada.group(group.id).role != .admin }
        XCTAssertTrue(demoted, "Ada sees MDK's admin change")
        let admins = try await ada.members(of: group.id).members.filter(\.isAdmin).map(\.publicKey)
        XCTAssertEqual(admins, [mdkKey])
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
}
