import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS
import InviteKitTestSupport

/// The current Marmot profile (MDK 0.9.14; PROTOCOL §5.12): the account identity proof, the
/// component codecs, current KeyPackages and their events, and a group's life in the profile,
/// with every refusal the issue lists.
final class MarmotCurrentProfileTests: XCTestCase {
    typealias G = MarmotGroup<MLSGroupState>
    let now: Int64 = 1_800_000_000
    let relays = ["wss://relay.example.com"]

    struct Member {
        let key = Secp256k1.PrivateKey()
        let store = MemoryKeyPackageStore()
        var id: [UInt8] { key.publicKey.rawRepresentation }
    }

    func code(_ body: () throws -> Any) -> MLSError.Code? {
        do { _ = try body(); return nil } catch { return (error as? MLSError)?.code }
    }

    func rejected(_ o: [MarmotOutcome]) -> MLSError.Code? {
        if case let .rejected(e)? = o.first { return e.code }
        return nil
    }

    func keyPackage(_ m: Member, profile: MarmotWireProfile = .current, lastResort: Bool = false) throws -> ValidatedKeyPackage {
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: m.key, relays: relays, lastResort: lastResort, profile: profile, now: now)
        try m.store.save(bundle)
        return try KeyPackageValidator.validate(event, now: now)
    }

    func creator(_ m: Member, retention: UInt64? = nil) throws -> G {
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: m.key, relays: relays, lastResort: false, now: now)
        return try G.create(creator: bundle, name: "current", relays: relays, retentionSeconds: retention, rng: SeededRandom(seed: 5))
    }

    func add(_ joiners: [Member], to admin: inout G, adminKey: Member) throws -> (groups: [G], commit: NostrEvent, wraps: [NostrEvent]) {
        let pending = try admin.commit(adding: joiners.map { try keyPackage($0) }, now: now)
        let wraps = try admin.confirmPublished(pending, acknowledgedBy: relays, wrappingWelcomesFrom: adminKey.key, now: now)
        let groups = try zip(joiners, wraps).map { try G.join(giftWrap: $1, recipient: $0.key, store: $0.store) }
        return (groups, pending.event, wraps)
    }

    // MARK: proof

    func testTheSpecSigningVectorPasses() throws {
        let secret = [UInt8](repeating: 0, count: 31) + [3]
        let account = try Secp256k1.PrivateKey(rawRepresentation: secret)
        let mlsKey = (0..<32).map { UInt8($0) }
        let proof = try AccountIdentityProof.make(account: account, signatureKey: mlsKey, createdAt: 1_700_000_000,
                                                  auxiliaryRandomness: [UInt8](repeating: 0, count: 32))
        XCTAssertEqual(Hex.encode(AccountIdentityProof.signingEventID(signer: proof.signer, createdAt: 1_700_000_000, cipherSuite: 1,
                                                                      signatureScheme: 0x0807, signatureKey: mlsKey)),
                       "b7e9a15dd85990fb0f49c33db3cc9875f73986207b038404ceb6b7fec4e0af6b")
        XCTAssertEqual(Hex.encode(proof.encoded),
                       "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9000000006553f100"
                       + "c5315d3c85b9d4907cb03395a2a97b3ba2eab393f8e45b13a5d5233acedac60a51d2a295e1b1b5ee372d18a49bdb8041a7dba9dedce722c7c6f712f78bbdfb5d")
        XCTAssertNoThrow(try proof.verify(identity: proof.signer, signatureKey: mlsKey, cipherSuite: .x25519Aes128GcmSha256Ed25519))
        var otherKey = mlsKey; otherKey[0] ^= 1
        XCTAssertEqual(code { try proof.verify(identity: proof.signer, signatureKey: otherKey, cipherSuite: .x25519Aes128GcmSha256Ed25519) },
                       .invalidIdentityProof)
        XCTAssertEqual(code { try proof.verify(identity: Secp256k1.PrivateKey().publicKey.rawRepresentation, signatureKey: mlsKey,
                                               cipherSuite: .x25519Aes128GcmSha256Ed25519) }, .invalidIdentityProof)
        XCTAssertEqual(code { try AccountIdentityProof(decoding: proof.encoded + [0]) }, .invalidIdentityProof)
    }

    // MARK: codecs

    func testComponentsListAndDictionaryAreStrict() throws {
        XCTAssertEqual(Hex.encode(ComponentsList([0x800c, 0x0001, 0x8009, 0x8001]).encoded), "08000180018009800c")
        XCTAssertEqual(try ComponentsList(decoding: hex("0480018003")).ids, [0x8001, 0x8003])
        XCTAssertEqual(code { try ComponentsList(decoding: hex("4004" + "80018003")) }, .nonMinimalVarint)
        XCTAssertEqual(code { try ComponentsList(decoding: hex("0480038001")) }, .invalidComponent)
        XCTAssertEqual(code { try ComponentsList(decoding: hex("0480018001")) }, .invalidComponent)
        XCTAssertEqual(code { try ComponentsList(decoding: hex("038001ff")) }, .invalidComponent)
        XCTAssertEqual(code { try ComponentsList(decoding: hex("02800100")) }, .trailingBytes)
        // Twelve ids, as marmot-app advertises them: `18 0001 8001 …`.
        let twelve = ComponentsList([0x0001, 0x8001, 0x8002, 0x8003, 0x8004, 0x8005, 0x8006, 0x8007, 0x8008, 0x8009, 0x800b, 0x800c])
        XCTAssertEqual(Array(twelve.encoded.prefix(3)), [0x18, 0x00, 0x01])
        // The last-resort KeyPackage extension MDK writes: `0006 04 03 0004 00`.
        let lastResort = try AppDataDictionary([.init(id: ComponentID.lastResortKeyPackage, data: [])]).extension
        XCTAssertEqual(Hex.encode(lastResort.tlsSerialized), "000604030004" + "00")
        XCTAssertEqual(code { try AppDataDictionary(decoding: hex("0880010100" + "80010100")) }, .invalidComponent)
        XCTAssertEqual(code { try AppDataDictionary(decoding: hex("0880030100" + "80010100")) }, .invalidComponent)
        // AppDataUpdate of retention to one day, as a Proposal.
        let p = Proposal.appDataUpdate(AppDataUpdate(componentID: 0x8005, operation: .update(MessageRetentionV1(seconds: 86_400).encoded)))
        XCTAssertEqual(Hex.encode(p.tlsSerialized), "0008" + "8005" + "01" + "08" + "0000000000015180")
        XCTAssertEqual(try Proposal(tlsSerialized: p.tlsSerialized), p)
        XCTAssertEqual(Hex.encode(Proposal.appDataUpdate(AppDataUpdate(componentID: 0x8002, operation: .remove)).tlsSerialized), "000880" + "0202")
        XCTAssertEqual(code { try Proposal(tlsSerialized: hex("00088005ff")) }, .invalidProposal)
        // The required capabilities of a current group.
        XCTAssertEqual(Hex.encode(MarmotProfile.currentRequiredCapabilities().tlsSerialized), "0003" + "09" + "020006" + "040008000a" + "00")
    }

    func testComponentBytes() throws {
        XCTAssertEqual(Hex.encode(AgentTextStreamPolicyV1.appDefault.encoded), "0103" + "00001000" + "00000000" + "0000")
        XCTAssertEqual(Hex.encode(EncryptedMediaPolicyV2.defaultPolicy.encoded),
                       "12656e637279707465642d6d656469612d76320b0a626c6f73736f6d2d763140730a626c6f73736f6d2d76311d68747470733a2f2f626c6f73736f6d2e"
                       + "646976696e652e766964656f2f0a626c6f73736f6d2d76311a68747470733a2f2f626c6f73736f6d2e646974746f2e7075622f0a626c6f73736f6d2d"
                       + "76311868747470733a2f2f63646e2e687a72643134392e636f6d2f")
        XCTAssertEqual(EncryptedMediaPolicyV2.defaultPolicy.encoded.count, 148)
        XCTAssertEqual(try EncryptedMediaPolicyV2(decoding: EncryptedMediaPolicyV2.defaultPolicy.encoded), .defaultPolicy)
        let profile = try GroupProfileV1(name: "n", description: "d")
        XCTAssertEqual(Hex.encode(profile.encoded), "016e" + "0164")
        XCTAssertEqual(code { try GroupProfileV1(name: String(repeating: "x", count: 257), description: "") }, .invalidComponent)
        let a = [UInt8](repeating: 2, count: 32), b = [UInt8](repeating: 1, count: 32)
        XCTAssertEqual(try AdminPolicyV1(decoding: try AdminPolicyV1(admins: [a, b]).encoded).admins, [b, a])
        XCTAssertEqual(code { try AdminPolicyV1(decoding: [0x40, 0x40] + a + b) }, .invalidComponent)  // unsorted
        XCTAssertEqual(code { try AdminPolicyV1(decoding: [0x00]) }, .invalidComponent)                 // empty
        XCTAssertEqual(code { try AdminPolicyV1(decoding: [0x40, 0x40] + b + b) }, .invalidComponent)  // repeated
        XCTAssertEqual(try GroupLifecycleV1(decoding: [1]), .disbanded)
        XCTAssertEqual(code { try GroupLifecycleV1(decoding: [2]) }, .invalidComponent)
        XCTAssertEqual(code { try MessageRetentionV1(decoding: [0, 0, 0]) }, .invalidComponent)
        XCTAssertEqual(Hex.encode(BlossomImageV1.encode(nil)), "0000000000")
        XCTAssertTrue(try BlossomImageV1.decode(hex("0000000000")) == nil)
        XCTAssertEqual(code { try BlossomImageV1.decode(hex("0100000000" + "00")) as Any }, .invalidComponent)
        XCTAssertEqual(code { try AgentTextStreamPolicyV1(decoding: hex("000300001000000000000000")) }, .invalidComponent)  // no required role
    }

    /// MDK 0.9.14's byte fixtures for the routing component, copied with their provenance into
    /// `vectors/marmot/current/mdk-0.9.14/`.
    func testRoutingFixturesOfMDK() throws {
        let names = ["nostr-routing-v1-valid-state.v1.json", "nostr-routing-v1-valid-update.v1.json",
                     "nostr-routing-v1-invalid-duplicate-relay.v1.json"]
        var ran = 0
        for name in names {
            let json = try XCTUnwrap(try VectorFiles.json("marmot/current/mdk-0.9.14/" + name) as? [String: Any])
            let bytes = try XCTUnwrap(json["bytes"] as? [String: Any])
            let expected = try XCTUnwrap(json["expected"] as? [String: Any])
            let data = hex(try XCTUnwrap(bytes["hex"] as? String))
            let valid = try XCTUnwrap(expected["valid"] as? Bool)
            if valid {
                let routing = try NostrRoutingV1(decoding: data)
                let fields = try XCTUnwrap(expected["fields"] as? [String: Any])
                XCTAssertEqual(Hex.encode(routing.nostrGroupID), fields["nostr_group_id_hex"] as? String, name)
                XCTAssertEqual(routing.relays, fields["relays"] as? [String], name)
                XCTAssertEqual(routing.encoded, data, name)
                if let entry = bytes["component_data_hex"] as? String {
                    var w = TLSWriter()
                    w.writeUInt16(ComponentID.nostrRouting)
                    w.writeOpaque(data)
                    XCTAssertEqual(Hex.encode(w.bytes), entry, name)
                }
            } else {
                XCTAssertEqual(code { try NostrRoutingV1(decoding: data) }, .invalidComponent, name)
            }
            ran += 1
        }
        XCTAssertEqual(ran, 3)
    }

    // MARK: KeyPackages

    func testKeyPackageAsMDKEmitsIt() throws {
        let m = Member()
        let (e, b) = try KeyPackageEvent.create(nostrKey: m.key, relays: [], lastResort: true, now: now)
        XCTAssertEqual(e.tags.map { $0[0] }, ["d", "mls_protocol_version", "i", "mls_ciphersuite", "mls_extensions", "mls_proposals", "app_components"])
        XCTAssertEqual(e.tags[4], ["mls_extensions", "0x0003", "0x0006", "0xf2d1"])
        XCTAssertEqual(e.tags[5], ["mls_proposals", "0x0008", "0x000a"])
        XCTAssertEqual(e.tags[6], ["app_components", "0x8001", "0x8002", "0x8003", "0x8004", "0x8005", "0x8006", "0x8007", "0x8008", "0x8009",
                                   "0x800b", "0x800c", "0x800e", "0xf1c0"])
        XCTAssertEqual(Base64.decode(e.content), MLSMessage(.keyPackage(b.keyPackage)).tlsSerialized)
        XCTAssertEqual(b.keyPackage.extensions.map(\.extensionType), [0x0006])
        XCTAssertEqual(b.keyPackage.leafNode.lifetime, Lifetime(notBefore: UInt64(now) - 3600, notAfter: UInt64(now) + 7_257_600))
        let d = try XCTUnwrap(try AppDataDictionary(extensions: b.keyPackage.leafNode.extensions))
        XCTAssertEqual(d.ids, [0x0001, 0x0002, 0x8009])
        XCTAssertEqual(d[0x0002], [0x00])
        let v = try KeyPackageValidator.validate(e, now: now)
        XCTAssertTrue(v.isLastResort)
        XCTAssertEqual(v.keyPackage.profile, .current)
        XCTAssertEqual(code { try KeyPackageEvent.create(nostrKey: m.key, relays: [], lastResort: false, lifetime: 7_776_000, now: now) }, .invalidValue)
    }

    func resign(_ e: NostrEvent, tags: [[String]]? = nil, content: String? = nil, key: Secp256k1.PrivateKey) throws -> NostrEvent {
        try EventTemplate(kind: e.kind, content: content ?? e.content, tags: tags ?? e.tags, createdAt: e.createdAt).signed(by: key)
    }

    /// A current KeyPackage whose leaf is rebuilt with `dictionary` (and `extraExtensions`),
    /// re-signed by its own keys, in a fresh event of `m`.
    func forged(_ m: Member, _ edit: (inout LeafNode, KeyPackageBundle) throws -> Void) throws -> NostrEvent {
        let (e, b) = try KeyPackageEvent.create(nostrKey: m.key, relays: [], lastResort: false, now: now)
        var kp = b.keyPackage
        try edit(&kp.leafNode, b)
        kp.leafNode.signature = MLSCrypto.signWithLabel(b.signaturePrivateKey, label: "LeafNodeTBS", content: kp.leafNode.tbs)
        kp.signature = MLSCrypto.signWithLabel(b.signaturePrivateKey, label: "KeyPackageTBS", content: kp.tbs)
        var tags = e.tags
        tags[2] = ["i", Hex.encode(kp.reference)]
        return try resign(e, tags: tags, content: Base64.encode(MLSMessage(.keyPackage(kp)).tlsSerialized), key: m.key)
    }

    func dictionary(_ entries: [(UInt16, [UInt8])]) throws -> MLSExtension {
        try AppDataDictionary(entries.map { .init(id: $0.0, data: $0.1) }).extension
    }

    func testEveryProofRefusalOnAKeyPackage() throws {
        let m = Member()
        let supported = ComponentsList(ComponentID.currentProfileSupported).encoded
        func proof(_ account: Secp256k1.PrivateKey, _ key: [UInt8]) throws -> [UInt8] {
            try AccountIdentityProof.make(account: account, signatureKey: key, createdAt: UInt64(now)).encoded
        }
        // No proof.
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.forged(m) { leaf, _ in
            leaf.extensions = [try self.dictionary([(0x0001, supported), (0x0002, [0])])] }, now: self.now) }, .invalidIdentityProof)
        // A proof by another account.
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.forged(m) { leaf, b in
            leaf.extensions = [try self.dictionary([(0x0001, supported), (0x8009, try proof(Secp256k1.PrivateKey(), b.signaturePrivateKey.publicKey))])]
        }, now: self.now) }, .invalidIdentityProof)
        // A proof over another leaf key.
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.forged(m) { leaf, _ in
            leaf.extensions = [try self.dictionary([(0x0001, supported), (0x8009, try proof(m.key, Ed25519.PrivateKey().publicKey))])]
        }, now: self.now) }, .invalidIdentityProof)
        // A proof the leaf does not advertise.
        let notAdvertised = ComponentsList(ComponentID.currentProfileSupported.filter { $0 != 0x8009 }).encoded
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.forged(m) { leaf, b in
            leaf.extensions = [try self.dictionary([(0x0001, notAdvertised), (0x8009, try proof(m.key, b.signaturePrivateKey.publicKey))])]
        }, now: self.now) }, .invalidEvent)  // the app_components tag no longer matches; the rule itself is checked below
        let leafless = try forged(m) { leaf, b in
            leaf.extensions = [try self.dictionary([(0x0001, notAdvertised), (0x8009, try proof(m.key, b.signaturePrivateKey.publicKey))])]
        }
        let kpNoAdvert = try KeyPackage(tlsSerialized: try XCTUnwrap(MLSMessage(tlsSerialized: Base64.decode(leafless.content)!).keyPackage).tlsSerialized)
        XCTAssertEqual(code { try MarmotLeafRule.check(kpNoAdvert.leafNode, profile: .current, suite: .x25519Aes128GcmSha256Ed25519) },
                       .invalidIdentityProof)
        // Both carriers: the legacy 0xf2f1 extension beside 0x8009.
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.forged(m) { leaf, _ in
            leaf.capabilities.extensions.append(0xf2f1)
            leaf.extensions.append(MLSExtension(type: 0xf2f1, data: [2]))
        }, now: self.now) }, .invalidEvent)  // mls_extensions no longer matches the tag
        let both = try forged(m) { leaf, _ in
            leaf.capabilities.extensions.append(0xf2f1)
            leaf.extensions.append(MLSExtension(type: 0xf2f1, data: [2]))
        }
        let bothKP = try XCTUnwrap(MLSMessage(tlsSerialized: Base64.decode(both.content)!).keyPackage)
        XCTAssertEqual(code { try MarmotLeafRule.check(bothKP.leafNode, profile: .current, suite: .x25519Aes128GcmSha256Ed25519) },
                       .invalidIdentityProof)
    }

    func testTagsMustDescribeTheDecodedPackage() throws {
        let m = Member()
        let (e, _) = try KeyPackageEvent.create(nostrKey: m.key, relays: [], lastResort: false, now: now)
        XCTAssertNoThrow(try KeyPackageValidator.validate(e, now: now))
        var t = e.tags; t.append(["encoding", "base64"])
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.resign(e, tags: t, key: m.key), now: self.now) }, .invalidEvent)
        t = e.tags; t[4].append("0xf2d2")
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.resign(e, tags: t, key: m.key), now: self.now) }, .invalidEvent)
        t = e.tags; t[6].removeLast()
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.resign(e, tags: t, key: m.key), now: self.now) }, .invalidEvent)
        t = e.tags; t[5] = ["mls_proposals", "0x000A", "0x0008"]
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.resign(e, tags: t, key: m.key), now: self.now) }, .invalidEvent)
        t = e.tags; t.append(e.tags[6])
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.resign(e, tags: t, key: m.key), now: self.now) }, .invalidEvent)
        t = e.tags; t.remove(at: 6)
        XCTAssertEqual(code { try KeyPackageValidator.validate(try self.resign(e, tags: t, key: m.key), now: self.now) }, .invalidEvent)
        // Order of list values does not matter (MDK compares sets).
        t = e.tags; t[5] = ["mls_proposals", "0x000a", "0x0008"]
        XCTAssertNoThrow(try KeyPackageValidator.validate(try resign(e, tags: t, key: m.key), now: now))
    }

    // MARK: groups

    func testAGroupLivesInTheCurrentProfile() throws {
        let alice = Member(), bob = Member(), carol = Member()
        var a = try creator(alice)
        XCTAssertEqual(a.profile, .current)
        XCTAssertEqual(a.groupData.requiredComponents.ids, [0x8001, 0x8003, 0x8004, 0x8006, 0x8009, 0x800b, 0x800c])
        XCTAssertEqual(a.state.groupContextExtensions.map(\.extensionType), [0x0003, 0x0006])
        let (groups, commit, wraps) = try add([bob], to: &a, adminKey: alice)
        var b = groups[0]
        XCTAssertEqual(b.profile, .current)
        XCTAssertEqual(b.groupData, a.groupData)
        // Kind 445: exactly one h tag; the commit inside is a PublicMessage.
        XCTAssertEqual(commit.tags, [["h", Hex.encode(a.nostrGroupID)]])
        let rumor = try GiftWrap.unwrap(wraps[0], recipient: bob.key).rumor
        XCTAssertEqual(rumor.tags.map { $0[0] }, ["e", "relays"])
        let message = try b.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "hi"), now: now)
        XCTAssertEqual(message.tags, [["h", Hex.encode(a.nostrGroupID)]])
        guard case let .message(inner, _)? = a.receive(event: message, now: now).first else { return XCTFail("message") }
        XCTAssertEqual(inner.content, "hi")
        // A self-update by a non-admin keeps the proof valid (same signature key, same proof).
        let update = try b.selfUpdate(now: now)
        _ = try b.confirmPublished(update, acknowledgedBy: relays, now: now)
        guard case .commitApplied? = a.receive(event: update.event, now: now).first else { return XCTFail("self-update") }
        // A group-data change goes by AppDataUpdate; the joiner agrees.
        var renamed = a.groupData
        renamed.name = "renamed"
        let change = try a.commit(groupData: renamed, now: now)
        _ = try a.confirmPublished(change, acknowledgedBy: relays, now: now)
        let renamedOutcome = b.receive(event: change.event, now: now)
        guard case .commitApplied? = renamedOutcome.first else { return XCTFail("rename \(renamedOutcome)") }
        XCTAssertEqual(b.groupData.name, "renamed")
        // Bob cannot change components; Carol's MIP KeyPackage cannot join.
        XCTAssertEqual(code { try b.commit(groupData: renamed, now: self.now) }, .notAdmin)
        XCTAssertEqual(code { try a.commit(adding: [try self.keyPackage(carol, profile: .mip)], now: self.now) }, .profileMismatch)
        // Promote bob (a member), then remove him: he leaves the admin list in the same commit.
        var promoted = a.groupData
        promoted.admins.append(bob.id)
        let promote = try a.commit(groupData: promoted, now: now)
        _ = try a.confirmPublished(promote, acknowledgedBy: relays, now: now)
        guard case .commitApplied? = b.receive(event: promote.event, now: now).first else { return XCTFail("promote") }
        XCTAssertTrue(b.isAdmin)
        XCTAssertEqual(code { try b.leaveEvent(now: self.now) }, .notAdmin)
        let remove = try a.commit(removing: [bob.id], now: now)
        _ = try a.confirmPublished(remove, acknowledgedBy: relays, now: now)
        XCTAssertEqual(a.groupData.admins, [alice.id])
        guard case .removed? = b.receive(event: remove.event, now: now).first else { return XCTFail("removed") }
    }

    func testRetentionPutsAnExpirationOnMessagesOnly() throws {
        let alice = Member(), bob = Member()
        var a = try creator(alice, retention: 3600)
        XCTAssertEqual(a.groupData.retentionSeconds, 3600)
        XCTAssertTrue(a.groupData.requiredComponents.contains(0x8005))
        let (groups, commit, _) = try add([bob], to: &a, adminKey: alice)
        XCTAssertEqual(commit.tags.count, 1)
        let m = try a.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "gone soon"), now: now)
        XCTAssertEqual(m.tags, [["h", Hex.encode(a.nostrGroupID)], ["expiration", String(now + 3600)]])
        var b = groups[0]
        guard case .message? = b.receive(event: m, now: now).first else { return XCTFail("message") }
    }

    func testForeignShapesAreRefusedBeforeDecryption() throws {
        let alice = Member(), bob = Member()
        var a = try creator(alice)
        var b = try add([bob], to: &a, adminKey: alice).groups[0]
        let key = a.state.exporter(label: "marmot", context: Array("group-event".utf8), length: 32)
        let sealed = try a.state.sealApplication(try MarmotApplicationMessage.encode(
            EventTemplate(kind: 9, content: "x").rumor(pubkey: alice.key.publicKey, now: now)), rng: SystemRandom())
        // An encoding tag (the MIP form) is fatal in the current profile.
        let mip = try MarmotGroupEvent.make(mlsMessage: sealed, nostrGroupID: a.nostrGroupID, key: key, profile: .mip, createdAt: now)
        XCTAssertEqual(rejected(b.receive(event: mip, now: now)), .invalidEvent)
        // A commit sent as PrivateMessage (MDK 0.8 style) is refused.
        let (pending, _, _) = try a.state.makeCommit(MarmotCommitRequest(), rng: SystemRandom())
        var privateCommit = try a.state.commit([], wireFormat: .privateMessage, rng: SystemRandom()).message
        _ = pending
        let event = try MarmotGroupEvent.make(mlsMessage: privateCommit, nostrGroupID: a.nostrGroupID, key: key, profile: .current, createdAt: now)
        XCTAssertEqual(rejected(b.receive(event: event, now: now)), .profileMismatch)
        privateCommit = []
        XCTAssertEqual(b.epoch, 1)
    }

    func testAForgedMIPLeafIsRefusedByReceivers() throws {
        let alice = Member(), bob = Member(), carol = Member()
        var a = try creator(alice)
        let b = try add([bob], to: &a, adminKey: alice).groups[0]
        // Built under the binding's nose: the engine itself refuses a MIP leaf in a current group.
        XCTAssertEqual(code { try a.state.makeCommit(MarmotCommitRequest(adds: [try self.keyPackage(carol, profile: .mip).keyPackage]),
                                                     rng: SystemRandom()) }, .profileMismatch)
        XCTAssertEqual(b.epoch, 1)
    }

    func testAWelcomeIntoAMIPGroupWithACurrentKeyPackageIsImpossible() throws {
        let alice = Member(), bob = Member()
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: alice.key, relays: relays, lastResort: false, profile: .mip, now: now)
        let a = try G.create(creator: bundle, name: "old", relays: relays, rng: SeededRandom(seed: 6))
        XCTAssertEqual(a.profile, .mip)
        XCTAssertEqual(code { try a.commit(adding: [try self.keyPackage(bob)], now: self.now) }, .profileMismatch)
        XCTAssertEqual(code { try a.state.makeCommit(MarmotCommitRequest(adds: [try self.keyPackage(bob).keyPackage]), rng: SystemRandom()) },
                       .profileMismatch)
    }

    func testAStoredCurrentGroupRoundTrips() throws {
        let alice = Member(), bob = Member()
        var a = try creator(alice)
        _ = try add([bob], to: &a, adminKey: alice)
        let back = try G(serialized: a.serialized())
        XCTAssertEqual(back.groupData, a.groupData)
        XCTAssertEqual(back.profile, .current)
        XCTAssertEqual(back.snapshots.map(\.groupData.profile), [.current])
    }
}
