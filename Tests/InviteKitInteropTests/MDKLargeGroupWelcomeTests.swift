import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// MDK 0.8.0 and per-member Welcomes (PROTOCOL §5.11). MDK keeps a Welcome rumor only when its
/// JSON is at most 100 KiB, and opens gift wraps with nostr-sdk, whose NIP-44 takes at most 65,535
/// plaintext bytes: a gift-wrapped Welcome reaches MDK only while its seal is that small.
final class MDKLargeGroupWelcomeTests: XCTestCase {
    var worker: MDKWorker!
    let relays = InteropScenarios.relays
    /// MDK's cap on a stored event's JSON (`MAX_EVENT_JSON_SIZE`, mdk-sqlite-storage v0.8.0).
    static let mdkMaxEventJSONBytes = 100 * 1024

    override func setUpWithError() throws { worker = try MDKWorker.startOrSkip() }
    override func tearDown() { worker = nil }

    /// An InviteKit admin's group of `others` InviteKit members plus MDK, added in one commit
    /// with the tree inline (MDK reads no other form).
    func group(others: Int, mdk: MDKPeer) throws -> (group: MarmotGroup<MLSGroupState>, admin: Secp256k1.PrivateKey,
                                                      pending: MarmotPendingCommit<MLSGroupState>, mdkKeyPackage: ValidatedKeyPackage) {
        let mdkKeyPackage = try KeyPackageValidator.validate(try mdk.keyPackageEvent(relays: relays))
        let admin = Secp256k1.PrivateKey()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: admin, relays: relays, lastResort: false, profile: .mip)
        let g = try MarmotGroup<MLSGroupState>.create(creator: bundle, name: "large", relays: relays)
        let members = try (0..<others).map { _ in
            try KeyPackageValidator.validate(try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false, profile: .mip).event)
        }
        return (g, admin, try g.commit(adding: members + [mdkKeyPackage]), mdkKeyPackage)
    }

    func exchange(_ g: inout MarmotGroup<MLSGroupState>, admin: Secp256k1.PrivateKey, mdk: MDKPeer, group: String) throws {
        let hello = try g.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "hello MDK"))
        XCTAssertEqual(try mdk.process(hello), .message(sender: admin.publicKey.hex, content: "hello MDK"))
        let back = try mdk.send("hello admin", group: group)
        guard case let .message(rumor, _)? = g.receive(event: back).first else { return XCTFail("the admin did not read MDK's message") }
        XCTAssertEqual(rumor.content, "hello admin")
        XCTAssertEqual(rumor.pubkey, mdk.pubkey)
    }

    /// 150 members: the per-member Welcome rumor (one `EncryptedGroupSecrets`, the inline tree)
    /// handed to MDK as a rumor, as MDK's own large groups are measured (its seal is past
    /// nostr-sdk's NIP-44 limit, as is any 150-member inline Welcome).
    func testMDKJoinsA150MemberGroupThroughAPerMemberWelcome() throws {
        let mdk = try worker.newPeer("mdk")
        var (g, admin, pending, mdkKeyPackage) = try group(others: 148, mdk: mdk)
        _ = try g.confirmPublished(pending, acknowledgedBy: relays, now: UnixTime.now())
        guard case let .welcome(full)? = try pending.welcome.map({ try MLSMessage(tlsSerialized: $0).body }) else { return XCTFail("no Welcome") }
        XCTAssertEqual(full.secrets.count, 149)
        let own = try full.restricted(to: [mdkKeyPackage.keyPackage.reference])
        XCTAssertEqual(own.secrets.count, 1)
        var rumor = try MarmotWelcomeRumor.make(welcomeMessage: MLSMessage(.welcome(own)).tlsSerialized, keyPackageEventID: mdkKeyPackage.event.id,
                                                relays: relays, committer: admin.publicKey)
        rumor.sig = nil
        XCTAssertLessThanOrEqual(rumor.jsonBytes.count, Self.mdkMaxEventJSONBytes)

        let group = try mdk.join(welcomeRumor: rumor)
        XCTAssertEqual(group, Hex.encode(g.nostrGroupID))
        XCTAssertEqual(try mdk.epoch(group: group), g.epoch)
        XCTAssertEqual(try mdk.members(group: group).count, 150)
        try exchange(&g, admin: admin, mdk: mdk, group: group)
    }

    /// An add-only Commit without an UpdatePath (PROTOCOL §5.11; RFC 9420 §12.4 allows it): MDK
    /// applies it, reaches the same epoch, and messages still flow both ways.
    func testMDKAppliesAnAddCommitWithoutAnUpdatePath() throws {
        let mdk = try worker.newPeer("mdk")
        var (g, admin, pending, mdkKeyPackage) = try group(others: 98, mdk: mdk)
        _ = try g.confirmPublished(pending, acknowledgedBy: relays, now: UnixTime.now())
        guard case let .welcome(full)? = try pending.welcome.map({ try MLSMessage(tlsSerialized: $0).body }) else { return XCTFail("no Welcome") }
        var rumor = try MarmotWelcomeRumor.make(welcomeMessage: MLSMessage(.welcome(try full.restricted(to: [mdkKeyPackage.keyPackage.reference]))).tlsSerialized,
                                                keyPackageEventID: mdkKeyPackage.event.id, relays: relays, committer: admin.publicKey)
        rumor.sig = nil
        let group = try mdk.join(welcomeRumor: rumor)

        // 100 leaves, parents blank: the admin's path is over half of a 16 KiB budget.
        let budget = try EventBudget(maxEventBytes: 16_384)
        XCTAssertTrue(g.updatePathIsOverHalf(of: budget))
        let newcomer = try KeyPackageValidator.validate(try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: relays, lastResort: false, profile: .mip).event)
        let add = try g.commit(adding: [newcomer], budget: budget)
        XCTAssertLessThanOrEqual(EventBudget.wireBytes(add.event), 16_384)
        _ = try g.confirmPublished(add, acknowledgedBy: relays, now: UnixTime.now())
        XCTAssertEqual(try mdk.process(add.event), .commit)
        XCTAssertEqual(try mdk.epoch(group: group), g.epoch)
        XCTAssertEqual(try mdk.members(group: group).count, 101)
        try exchange(&g, admin: admin, mdk: mdk, group: group)
    }

    /// Under the default 64 KiB budget, the largest group whose inline Welcome fits: MDK joins
    /// through the gift wrap itself, which holds only its own secrets.
    func testMDKJoinsThroughAGiftWrappedPerMemberWelcomeWithinTheDefaultBudget() throws {
        let mdk = try worker.newPeer("mdk")
        var (g, admin, pending, _) = try group(others: 58, mdk: mdk)
        let release = try g.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: .standard)
        XCTAssertTrue(release.treeChunks.isEmpty)
        let delivery = try XCTUnwrap(release.welcomes.last)
        XCTAssertEqual(delivery.recipient, mdk.pubkey)
        XCTAssertTrue(EventBudget.standard.fits(delivery.wrap), "\(EventBudget.wireBytes(delivery.wrap)) bytes")
        let group = try mdk.join(welcome: delivery.wrap)
        XCTAssertEqual(try mdk.members(group: group).count, 60)
        try exchange(&g, admin: admin, mdk: mdk, group: group)
    }
}
