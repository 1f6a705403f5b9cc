import XCTest
import Foundation
import InviteKit
import InviteKitTestSupport

/// A group with an MDK member over the real nostr-relay: the inviter is the `invitekit` CLI
/// (its own home, `group add`, `serve`, `group send/read/members/remove` as processes), the member
/// is MDK 0.8.0 in its chroot, and this test is only MDK's app-side relay I/O: it publishes what
/// MDK makes and hands MDK what the relay holds. Nothing passes between the two except through
/// the relay.
final class MDKRelayNodeTests: XCTestCase {
    private var worker: MDKWorker!
    private var world: CLIRelayWorld!

    override func setUpWithError() throws {
        worker = try MDKWorker.startOrSkip()
        world = try CLIRelayWorld(prefix: "invitekit-mdk-relay")
    }

    override func tearDown() {
        world?.tearDown()
        worker = nil
    }

    private func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    func testAnMDKMemberJoinsTalksUpdatesAndIsRemovedOverTheRelay() async throws {
        let ada = world.home("ada")
        XCTAssertEqual(try world.cli.run(["init", "--home", ada, "--relay", world.relay.url]).status, 0)
        let made = json(try world.cli.run(["group", "new", "--home", ada, "--name", "mixed", "--profile", "mip", "--json"]).output)
        let group = try XCTUnwrap(made["group"] as? String)
        let nostrGroupID = try XCTUnwrap(made["nostr_group_id"] as? String)
        let pool = RelayPool(urls: [world.relay.url])
        let mdk = try worker.newPeer("mdk")
        var seen = Set<String>()

        // MDK publishes a KeyPackage; ada adds MDK by its key: fetched from the relay, Commit
        // acknowledged, then the Welcome gift-wrapped to MDK.
        let keyPackage = try mdk.createKeyPackage(relays: [world.relay.url]).event
        let kpPublished = await pool.publish(keyPackage)
        XCTAssertEqual(kpPublished.successCount, 1)
        let added = try world.cli.run(["group", "add", "--home", ada, "--group", group, "--member", mdk.pubkey])
        XCTAssertEqual(added.status, 0, added.output)
        XCTAssertTrue(added.output.contains("confirmed; epoch 1"), added.output)

        let wraps = await pool.fetch([GiftWrapCatchUp.filter(for: try NostrKeys.parsePublicKey(mdk.pubkey))], timeout: .seconds(5)).events
        XCTAssertEqual(wraps.count, 1, "one Welcome for MDK")
        XCTAssertEqual(try mdk.join(welcome: try XCTUnwrap(wraps.first)), nostrGroupID)
        XCTAssertEqual(try mdk.epoch(group: nostrGroupID), 1)

        // ada → MDK.
        let sent = try world.cli.run(["group", "send", "--home", ada, "--group", group, "hello mdk"])
        XCTAssertEqual(sent.status, 0, sent.output)
        let read = try await mdk.readGroupEvents(from: pool, group: nostrGroupID, seen: &seen)
        XCTAssertTrue(read.contains(.message(sender: json(try world.cli.run(["id", "--home", ada, "--json"]).output)["npub"].flatMap { npub in
            (try? NostrKeys.parsePublicKey(npub as? String ?? ""))?.hex } ?? "", content: "hello mdk")), "\(read)")

        // MDK → ada, picked up by ada's serve from its live subscription.
        let (serve, serveOut) = try world.cli.start(["serve", "--home", ada, "--interval", "0.3"])
        XCTAssertTrue(CLIProcesses.waitFor { serveOut.text.contains("serving on") }, serveOut.text)
        let reply = try mdk.send("hello ada", group: nostrGroupID)
        seen.insert(reply.id)
        let replyPublished = await pool.publish(reply)
        XCTAssertEqual(replyPublished.successCount, 1)
        XCTAssertTrue(try CLIProcesses.waitFor {
            try world.cli.run(["group", "read", "--home", ada, "--group", group]).output.contains("hello ada")
        }, serveOut.text)
        let history = try world.cli.run(["group", "read", "--home", ada, "--group", group, "--json"]).output
        XCTAssertTrue(history.contains("\"sender\":\"\(NIP19.npub(try NostrKeys.parsePublicKey(mdk.pubkey)))\""), history)

        // MDK rotates its keys (a self-update Commit); ada's serve applies it.
        let update = try mdk.selfUpdate(group: nostrGroupID)
        let commit = try XCTUnwrap(update.commit)
        seen.insert(commit.id)
        let commitPublished = await pool.publish(commit)
        XCTAssertEqual(commitPublished.successCount, 1)
        try mdk.mergePendingCommit(group: nostrGroupID)
        XCTAssertTrue(try CLIProcesses.waitFor {
            try world.cli.run(["group", "members", "--home", ada, "--group", group, "--json"]).output.contains("\"epoch\":\"2\"")
        }, serveOut.text)

        // ada removes MDK through the running serve; MDK reads the Commit that removes it.
        let removed = try world.cli.run(["group", "remove", "--home", ada, "--group", group, "--member", mdk.pubkey])
        XCTAssertEqual(removed.status, 0, removed.output)
        XCTAssertTrue(removed.output.contains("confirmed; epoch 3"), removed.output)
        let last = try await mdk.readGroupEvents(from: pool, group: nostrGroupID, seen: &seen)
        XCTAssertEqual(last, [.commit], "MDK applies its removal")
        XCTAssertFalse(try mdk.members(group: nostrGroupID).contains(mdk.pubkey))
        XCTAssertFalse(serveOut.text.contains("relay error"), serveOut.text)
        kill(serve.processIdentifier, SIGTERM)
        XCTAssertTrue(RelayProcess.waitForExit(serve, timeout: 15))
        await pool.close()
    }
}
