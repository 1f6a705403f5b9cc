import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// PROTOCOL §5.11 on `MarmotGroup<MLSGroupState>`: the event budget, per-member Welcomes, the
/// ratchet tree out of band in chunk events, and the add planner.
final class LargeGroupWelcomeTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    struct Invitee {
        let key: Secp256k1.PrivateKey
        let store: MemoryKeyPackageStore
        let keyPackage: ValidatedKeyPackage
    }

    func invitee(_ rng: RandomSource) throws -> Invitee {
        let key = Secp256k1.PrivateKey(using: rng)
        let store = MemoryKeyPackageStore()
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, now: now)
        try store.save(bundle)
        return Invitee(key: key, store: store, keyPackage: try KeyPackageValidator.validate(event, now: now))
    }

    /// A group of `1 + size` members built by one unbudgeted commit (a fresh tree), its admin key.
    func group(members size: Int, seed: UInt64) throws -> (group: G, admin: Secp256k1.PrivateKey) {
        let rng = SeededRandom(seed: seed)
        let admin = Secp256k1.PrivateKey(using: rng)
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: admin, relays: relays, lastResort: false, now: now)
        var g = try G.create(creator: bundle, name: "large", relays: relays, outOfBandTree: true, rng: rng)
        if size > 0 {
            let others = try (0..<size).map { _ in try invitee(rng).keyPackage }
            let p = try g.commit(adding: others, now: now, rng: rng)
            _ = try g.confirmPublished(p, acknowledgedBy: relays, now: now)
        }
        return (g, admin)
    }

    func welcome(of wrap: NostrEvent, for key: Secp256k1.PrivateKey) throws -> (rumor: MarmotWelcomeRumor.Parsed, welcome: Welcome) {
        let parsed = try MarmotWelcomeRumor.parse(try GiftWrap.unwrap(wrap, recipient: key).rumor)
        return (parsed, try MLSGroupState.welcome(parsed.welcomeMessage))
    }

    // MARK: budget

    func testGiftWrapSizeFormulaMatchesRealWraps() throws {
        let sender = Secp256k1.PrivateKey(), recipient = Secp256k1.PrivateKey()
        for n in [0, 10, 300, 5_000, 40_000, 70_000] {
            let rumor = EventTemplate(kind: 444, content: String(repeating: "A", count: n), tags: [["e", "x"]], createdAt: now)
                .rumor(pubkey: sender.publicKey)
            let wrap = try GiftWrap.wrap(rumor, from: sender, to: recipient.publicKey, now: now)
            var unsigned = rumor
            unsigned.sig = nil
            XCTAssertEqual(EventBudget.giftWrapBytes(rumorJSONBytes: unsigned.jsonBytes.count), EventBudget.wireBytes(wrap), "rumor content \(n)")
        }
    }

    func testBudgetNamesTheBoundAndRefusesTinyBudgets() throws {
        XCTAssertEqual(EventBudget.standard.maxEventBytes, 65_536)
        XCTAssertThrowsError(try EventBudget(maxEventBytes: 1_000)) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidValue) }
        let budget = try EventBudget(maxEventBytes: 9_000)
        let big = try EventTemplate(kind: 1, content: String(repeating: "x", count: 9_000)).signed(by: Secp256k1.PrivateKey())
        XCTAssertThrowsError(try budget.check(big, "the test event")) {
            XCTAssertEqual(($0 as? MLSError)?.code, .eventTooLarge)
            XCTAssertTrue("\($0)".contains("maxEventBytes is 9000"), "\($0)")
        }
    }

    func testACommitOverTheBudgetIsATypedError() throws {
        // A fresh tree of 120 members: the admin's UpdatePath encrypts to every leaf (~10 KB).
        let (g, _) = try group(members: 120, seed: 1)
        XCTAssertThrowsError(try g.commit(budget: try EventBudget(maxEventBytes: 8_192), now: now)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .eventTooLarge)
            XCTAssertTrue("\($0)".contains("maxEventBytes is 8192"), "\($0)")
        }
        XCTAssertNoThrow(try g.commit(budget: .standard, now: now))
    }

    // MARK: per-member Welcomes, inline tree

    func testEachAddedMemberGetsAWelcomeWithOnlyItsOwnSecretsAndTheInlineTree() throws {
        var (g, admin) = try group(members: 3, seed: 2)
        let rng = SeededRandom(seed: 20)
        let people = try (0..<3).map { _ in try invitee(rng) }
        let p = try g.commit(adding: people.map(\.keyPackage), budget: .standard, now: now, rng: rng)
        let release = try g.confirmPublished(p, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: .standard, now: now, rng: rng)
        XCTAssertTrue(release.treeChunks.isEmpty)
        XCTAssertEqual(release.welcomes.map(\.recipient), people.map(\.keyPackage.event.pubkey))
        let full = try XCTUnwrap(p.pending.welcomeValue)
        for (person, delivery) in zip(people, release.welcomes) {
            XCTAssertTrue(EventBudget.standard.fits(delivery.wrap))
            let (rumor, w) = try welcome(of: delivery.wrap, for: person.key)
            XCTAssertNil(rumor.treeChunks)
            XCTAssertEqual(w.secrets.map(\.newMember), [person.keyPackage.keyPackage.reference])
            XCTAssertEqual(w, try full.restricted(to: [person.keyPackage.keyPackage.reference]))
            // The tree is the RFC 9420 ratchet_tree extension, byte for byte the committer's tree.
            let info = try MLSGroupState.openGroupInfo(welcome: w, welcomeSecret: g.state.epochSecrets.welcomeSecret)
            XCTAssertEqual(info.extension(RatchetTreeExtension.extensionType)?.data, g.state.tree.tlsSerialized)
            XCTAssertNil(info.extension(RatchetTreeOption.extensionType))
            let joined = try G.join(giftWrap: delivery.wrap, recipient: person.key, store: person.store)
            XCTAssertEqual(joined.epoch, g.epoch)
        }
        // A Welcome made for Bob has nothing for Carol.
        XCTAssertThrowsError(try G.join(giftWrap: release.welcomes[0].wrap, recipient: people[1].key, store: people[1].store))
    }

    func testPerMemberWelcomesKeepTheirEntriesInOrderAndRefuseAMissingOne() throws {
        let (g, _) = try group(members: 2, seed: 3)
        let rng = SeededRandom(seed: 30)
        let people = try (0..<4).map { _ in try invitee(rng) }
        let p = try g.commit(adding: people.map(\.keyPackage), budget: .standard, now: now, rng: rng)
        let full = try XCTUnwrap(p.pending.welcomeValue)
        let refs = people.map(\.keyPackage.keyPackage.reference)
        // One device with two KeyPackages (given out of order) gets both entries, in the Welcome's order.
        let split = try full.restricted(toEach: [[refs[3], refs[1]], [refs[0]], []])
        XCTAssertEqual(split.map { $0.secrets.map(\.newMember) }, [[refs[1], refs[3]], [refs[0]], []])
        XCTAssertTrue(split.allSatisfy { $0.encryptedGroupInfo == full.encryptedGroupInfo })
        XCTAssertThrowsError(try full.restricted(toEach: [[refs[0]], [Array(repeating: 7, count: 32)]])) {
            XCTAssertEqual(($0 as? MLSError)?.code, .notFound)
        }
    }

    // MARK: out-of-band tree

    func testTreeGoesOutOfBandWhenTheInlineWelcomeWouldNotFitAndTheJoinerReassemblesIt() throws {
        let (g, person, release) = try smallBudgetAdd(seed: 3)
        XCTAssertGreaterThan(release.treeChunks.count, 1)
        let budget = try EventBudget(maxEventBytes: 12_000)
        for e in release.events { XCTAssertTrue(budget.fits(e), "\(EventBudget.wireBytes(e)) bytes") }
        for c in release.treeChunks {
            XCTAssertEqual(c.kind, RatchetTreeChunks.kind)
            XCTAssertNoThrow(try c.verify())
            XCTAssertEqual(c.firstTagValue("expiration"), String(now + RatchetTreeChunks.lifetimeSeconds))
        }
        let gift = try GiftWrap.unwrap(release.welcomes[0].wrap, recipient: person.key)
        let opened = try G.openWelcome(gift: gift, recipient: person.key, store: person.store)
        let reference = try XCTUnwrap(opened.treeChunks)
        XCTAssertEqual(reference.eventIDs, release.treeChunks.map(\.id))
        XCTAssertEqual(reference.treeHash, g.state.groupContext.treeHash)
        XCTAssertEqual(reference.treeLength, g.state.tree.tlsSerialized.count)
        guard case .outOfBand? = opened.opening.treeOption else { return XCTFail("no outOfBand RatchetTreeOption") }
        // Chunks in any order, with strangers mixed in.
        let noise = try EventTemplate(kind: 1, content: "noise").signed(by: Secp256k1.PrivateKey())
        var joined = try G.join(opened, treeChunkEvents: release.treeChunks.reversed() + [noise], store: person.store)
        XCTAssertEqual(joined.epoch, g.epoch)
        XCTAssertEqual(joined.state.tree.tlsSerialized, g.state.tree.tlsSerialized)
        XCTAssertEqual(try person.store.references().count, 0, "the KeyPackage is consumed once joined")
        var admin = g
        let m = try joined.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "hello"), now: now)
        guard case let .message(rumor, _)? = admin.receive(event: m, now: now).first else { return XCTFail("admin did not read it") }
        XCTAssertEqual(rumor.content, "hello")
    }

    /// The admin of a 60-member group adds one member under a 12,000-byte budget: the inline
    /// Welcome (~30 KB) does not fit, the commit does (its path is built under the default budget
    /// first, so the tree has keys on the admin's path).
    func smallBudgetAdd(seed: UInt64) throws -> (group: G, person: Invitee, release: MarmotCommitRelease) {
        var (g, admin) = try group(members: 59, seed: seed)
        let rng = SeededRandom(seed: seed + 100)
        let budget = try EventBudget(maxEventBytes: 12_000)
        let person = try invitee(rng)
        let p = try g.commit(adding: [person.keyPackage], budget: budget, now: now, rng: rng)
        let release = try g.confirmPublished(p, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: budget, now: now, rng: rng)
        return (g, person, release)
    }

    func testMissingCorruptOrForeignChunksAreTypedErrorsAndKeepTheKeyPackage() throws {
        let (_, person, release) = try smallBudgetAdd(seed: 4)
        let gift = try GiftWrap.unwrap(release.welcomes[0].wrap, recipient: person.key)
        let opened = try G.openWelcome(gift: gift, recipient: person.key, store: person.store)
        // Missing.
        XCTAssertThrowsError(try G.join(opened, treeChunkEvents: Array(release.treeChunks.dropLast()), store: person.store)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .treeChunksMissing)
        }
        XCTAssertThrowsError(try G.join(giftWrap: release.welcomes[0].wrap, recipient: person.key, store: person.store)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .treeChunksMissing)
        }
        // Corrupt: the content changed under the same id.
        var bad = release.treeChunks
        bad[0].content = Base64.encode([UInt8](repeating: 7, count: 300))
        XCTAssertThrowsError(try G.join(opened, treeChunkEvents: bad, store: person.store)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .treeChunkInvalid)
        }
        // Foreign: chunks of another group's tree, named by a Welcome re-signed by this admin.
        let (_, _, other) = try smallBudgetAdd(seed: 5)
        bad = release.treeChunks
        bad[1] = other.treeChunks[1]
        let forged = try RatchetTreeChunks.Reference(treeHash: opened.treeChunks!.treeHash, treeLength: opened.treeChunks!.treeLength,
                                                     eventIDs: bad.map(\.id))
        let opening = opened.opening
        XCTAssertThrowsError(try opening.openTreeChunks(try RatchetTreeChunks.sealedChunks(bad, for: forged),
                                                        treeLength: forged.treeLength)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .treeChunkInvalid)
        }
        XCTAssertEqual(try person.store.references().count, 1, "every failure keeps the KeyPackage")
        XCTAssertNoThrow(try G.join(opened, treeChunkEvents: release.treeChunks, store: person.store))
    }

    func testATreeThatHashesDifferentlyIsRefused() throws {
        let (g, person, release) = try smallBudgetAdd(seed: 6)
        let gift = try GiftWrap.unwrap(release.welcomes[0].wrap, recipient: person.key)
        let opened = try G.openWelcome(gift: gift, recipient: person.key, store: person.store)
        // A well-formed tree sealed under the right key but not the GroupInfo's: another group's.
        let older = try smallBudgetAdd(seed: 7).group.state.tree
        let sealed = try RatchetTreeChunks.seal(tree: older.tlsSerialized, treeHash: opened.opening.treeHash,
                                                welcomeSecret: g.state.epochSecrets.welcomeSecret, suite: g.state.cipherSuite,
                                                maxSealedBytes: 4_000)
        let tree = try opened.opening.openTreeChunks(sealed, treeLength: older.tlsSerialized.count)
        XCTAssertThrowsError(try MLSGroupState.join(opened.opening, ratchetTree: tree)) {
            let code = ($0 as? MLSError)?.code
            XCTAssertTrue(code == .treeHashMismatch || code == .invalidSignature || code == .notFound, "\($0)")
        }
    }

    // MARK: wire format

    func testRatchetTreeOptionWireFormat() throws {
        XCTAssertEqual(RatchetTreeOption.outOfBand(treeSignature: [1, 2, 3]).tlsSerialized, [3, 3, 1, 2, 3])
        XCTAssertEqual(RatchetTreeOption.distributionService.tlsSerialized, [4])
        XCTAssertEqual(RatchetTreeOption.httpsUri(url: [0x61], treeSignature: [9]).tlsSerialized, [2, 1, 0x61, 1, 9])
        XCTAssertEqual(RatchetTreeOption.full(treeBytes: [2, 0, 0]).tlsSerialized, [1, 2, 0, 0])
        for v in [RatchetTreeOption.outOfBand(treeSignature: [1]), .distributionService, .httpsUri(url: [1], treeSignature: []),
                  .full(treeBytes: [1, 0])] {
            XCTAssertEqual(try RatchetTreeOption(tlsSerialized: v.tlsSerialized), v)
        }
        for bad: [UInt8] in [[0], [5], [3], [3, 4, 1], [4, 0]] {
            XCTAssertThrowsError(try RatchetTreeOption(tlsSerialized: bad), "\(bad)")
        }
        XCTAssertEqual(RatchetTreeOption.treeTBS(groupID: [0xaa], epoch: 2, treeHash: [0xbb, 0xcc]),
                       [1, 0xaa, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0xbb, 0xcc])
    }

    func testTreeChunkTagAndContext() throws {
        let id = String(repeating: "ab", count: 32), id2 = String(repeating: "cd", count: 32)
        let r = try RatchetTreeChunks.Reference(treeHash: [UInt8](repeating: 1, count: 32), treeLength: 100, eventIDs: [id, id2])
        XCTAssertEqual(r.tag, ["tree_chunks", String(repeating: "01", count: 32), "100", id, id2])
        XCTAssertEqual(try RatchetTreeChunks.Reference(tag: r.tag), r)
        for bad in [["tree_chunks", "00", "100", id], ["tree_chunks", String(repeating: "01", count: 32), "0100", id],
                    ["tree_chunks", String(repeating: "01", count: 32), "100", id, id], ["tree_chunks", String(repeating: "01", count: 32), "100"],
                    ["tree_chunks", String(repeating: "01", count: 32), "1", id, id2],
                    ["tree_chunks", String(repeating: "01", count: 32), "100", id.uppercased()]] {
            XCTAssertThrowsError(try RatchetTreeChunks.Reference(tag: bad), "\(bad)") {
                XCTAssertEqual(($0 as? MLSError)?.code, .treeChunkInvalid)
            }
        }
        XCTAssertEqual(RatchetTreeChunks.slices(treeLength: 10, count: 3), [0..<4, 4..<7, 7..<10])
        XCTAssertEqual(RatchetTreeChunks.context(treeHash: [7], treeLength: 10, count: 3, index: 1, offset: 4, length: 3),
                       [1, 7, 0, 0, 0, 10, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 3])
    }

    /// Vector computed independently (Python `cryptography`: HKDF-Expand with the RFC 9420
    /// KDFLabel, AES-128-GCM), see docs/MIP-large-groups.md "Test vector".
    func testTreeChunkSealingVector() throws {
        let secret = SecureBytes(copying: [UInt8](repeating: 0x11, count: 32))
        let tree = (0..<40).map { UInt8($0) }
        let hash = [UInt8](repeating: 0x22, count: 32)
        let sealed = try RatchetTreeChunks.seal(tree: tree, treeHash: hash, welcomeSecret: secret, suite: .x25519Aes128GcmSha256Ed25519,
                                                maxSealedBytes: 36)
        XCTAssertEqual(sealed.map(\.count), [36, 36])
        XCTAssertEqual(Hex.encode(sealed[0]), Self.vectorChunk0)
        XCTAssertEqual(Hex.encode(sealed[1]), Self.vectorChunk1)
        XCTAssertEqual(try RatchetTreeChunks.open(sealed, treeHash: hash, treeLength: 40, welcomeSecret: secret,
                                                  suite: .x25519Aes128GcmSha256Ed25519), tree)
        XCTAssertThrowsError(try RatchetTreeChunks.open([sealed[1], sealed[0]], treeHash: hash, treeLength: 40, welcomeSecret: secret,
                                                        suite: .x25519Aes128GcmSha256Ed25519)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .treeChunkInvalid)
        }
    }

    static let vectorChunk0 = "735f073c7ea120878f2fc99f9857cb7f9a61ed39d9da73f989d660da590ad9538fb3d940"
    static let vectorChunk1 = "4ea7102744970701883886ab02aaeaf8abf48d18e516e25015d39a53d4acc07b9a18c069"

    // MARK: planner

    func testTheAddPlannerSplitsAddsSoEveryEventFits() throws {
        var (g, admin) = try group(members: 0, seed: 7)
        let budget = try EventBudget(maxEventBytes: 16_384)
        let rng = SeededRandom(seed: 70)
        let people = try (0..<40).map { _ in try invitee(rng) }
        var left = people.map(\.keyPackage)
        var commits = 0, joined = 0
        while !left.isEmpty {
            let step = try g.nextAddCommit(from: left, budget: budget, now: now, rng: rng)
            XCTAssertTrue(budget.fits(step.pending.event), "\(EventBudget.wireBytes(step.pending.event))")
            XCTAssertEqual(step.remaining, left.count - step.added)
            let release = try g.confirmPublished(step.pending, acknowledgedBy: relays, wrappingWelcomesFrom: admin, budget: budget, now: now, rng: rng)
            for e in release.events { XCTAssertTrue(budget.fits(e)) }
            XCTAssertEqual(release.welcomes.count, step.added)
            let byKey = Dictionary(uniqueKeysWithValues: people.map { ($0.key.publicKey.hex, $0) })
            for d in release.welcomes {
                let person = try XCTUnwrap(byKey[d.recipient])
                let gift = try GiftWrap.unwrap(d.wrap, recipient: person.key)
                let opened = try G.openWelcome(gift: gift, recipient: person.key, store: person.store)
                _ = try G.join(opened, treeChunkEvents: release.treeChunks, store: person.store)
                joined += 1
            }
            left.removeFirst(step.added)
            commits += 1
        }
        XCTAssertGreaterThan(commits, 1, "40 KeyPackages do not fit one 16 KiB commit")
        XCTAssertEqual(joined, 40)
        XCTAssertEqual(g.state.memberIdentities.count, 41)
        XCTAssertThrowsError(try g.nextAddCommit(from: [], budget: budget, now: now)) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidValue) }
    }
}
