import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// The account relay lists of the current profile (PROTOCOL §5.12.6): `init` queues the node's
/// kinds 10002 and 10050, and an add finds a member's KeyPackage on the write relays of its
/// kind 10002 and sends the Welcome to its kind-10050 inbox, over three in-memory relays.
final class NodeRelayListTests: XCTestCase {
    private var root: TemporaryDirectory? = TemporaryDirectory(prefix: "invitekit-relay-lists")
    let groupRelay = InMemoryRelay(url: "wss://group.invitekit.test")
    let outboxRelay = InMemoryRelay(url: "wss://carol-outbox.invitekit.test")
    let inboxRelay = InMemoryRelay(url: "wss://carol-inbox.invitekit.test")

    override func tearDown() { root = nil }

    func testInitPublishesBothListsAndAnAddUsesTheMembersLists() async throws {
        let home = StoreHome(directory: root!.file("ada"))
        let adaKey = try InviteKitNode.initialize(home: home, relays: [groupRelay.url], rng: SeededRandom(seed: 1))
        let relays = [groupRelay, outboxRelay, inboxRelay]
        let configuration = InviteKitNode.Configuration(relayTimeout: .seconds(5), idleInterval: .milliseconds(100), connector: { url in
            relays.first { $0.url == url } ?? relays[0]
        })
        let now = UnixTime.now()
        let ada = try InviteKitNode(home: home, configuration: configuration, clock: { now }, rng: SeededRandom(seed: 101))
        let runner = Task { try await ada.run() }
        defer { runner.cancel() }

        // Carol publishes her lists where the group is, and her KeyPackage only to her outbox.
        let carol = Secp256k1.PrivateKey()
        for list in [RelayList.outbox([outboxRelay.url], createdAt: now), RelayList.inbox([inboxRelay.url], createdAt: now)] {
            guard case .accepted = await groupRelay.publish(try list.signed(by: carol), timeout: .seconds(5)) else { return XCTFail("list refused") }
        }
        let (kp, _) = try KeyPackageEvent.create(nostrKey: carol, relays: [], lastResort: false, now: now)
        guard case .accepted = await outboxRelay.publish(kp, timeout: .seconds(5)) else { return XCTFail("KeyPackage refused") }

        let group = try await ada.createGroup(name: "lists")
        let added = try await ada.addMembers([carol.publicKey], to: group.id, timeout: .seconds(60))
        XCTAssertEqual(added.added, [carol.publicKey])

        let welcomed = await Poll.awaiting(timeout: .seconds(30)) {
            await !self.inboxRelay.events(matching: [NostrFilter(kinds: [1059], tags: ["p": [carol.publicKey.hex]])]).isEmpty
        }
        XCTAssertTrue(welcomed, "the Welcome did not reach carol's kind-10050 inbox")
        let lists = await groupRelay.events(matching: [NostrFilter(authors: [adaKey.hex], kinds: [10002, 10050])])
        XCTAssertEqual(Set(lists.map(\.kind)), [10002, 10050], "init's relay lists went out with the first run")
        XCTAssertEqual(lists.first { $0.kind == 10002 }?.tags, [["r", groupRelay.url]])
        XCTAssertEqual(lists.first { $0.kind == 10050 }?.tags, [["relay", groupRelay.url]])
    }
}
