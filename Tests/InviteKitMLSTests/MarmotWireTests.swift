import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitTestSupport
@testable import InviteKitMLS

/// The Marmot wire formats of MDK 0.8.0: group data 0xf2ee, the kind-445 cipher and envelope, the
/// kind-444 Welcome rumor and the application-message rumor.
final class MarmotWireTests: XCTestCase {
    func sample(_ name: String) throws -> NostrEvent {
        try NostrEvent(json: String(decoding: try VectorFiles.data("marmot/mdk-0.8.0/\(name)"), as: UTF8.self), requireSignature: false)
    }

    func code(_ body: () throws -> Any) -> MLSError.Code? {
        do { _ = try body(); return nil } catch { return (error as? MLSError)?.code }
    }

    // MARK: 0xf2ee

    let kat = "0002" + String(repeating: "11", count: 32) + "0454657374" + "0444657363" + "4040"
        + String(repeating: "01", count: 32) + String(repeating: "22", count: 32)
        + "20" + "0f7773733a2f2f612e6578616d706c65" + "0f7773733a2f2f622e6578616d706c65"

    func katData(images: Bool) -> MarmotGroupData {
        MarmotGroupData(nostrGroupID: [UInt8](repeating: 0x11, count: 32), name: "Test", description: "Desc",
                        admins: [[UInt8](repeating: 0x22, count: 32), [UInt8](repeating: 0x01, count: 32)],
                        relays: ["wss://b.example", "wss://a.example"],
                        imageHash: images ? [UInt8](repeating: 0x33, count: 32) : nil,
                        imageKey: images ? SecureBytes(copying: [UInt8](repeating: 0x44, count: 32)) : nil,
                        imageNonce: images ? [UInt8](repeating: 0x55, count: 12) : nil,
                        imageUploadKey: images ? SecureBytes(copying: [UInt8](repeating: 0x66, count: 32)) : nil)
    }

    func testGroupDataKnownAnswer() throws {
        // Written in MDK's order: admins by bytes, relays by UTF-8, empty vectors for absent images.
        XCTAssertEqual(Hex.encode(katData(images: false).tlsSerialized), kat + "00000000")
        let withImages = kat + "20" + String(repeating: "33", count: 32) + "20" + String(repeating: "44", count: 32)
            + "0c" + String(repeating: "55", count: 12) + "20" + String(repeating: "66", count: 32)
        XCTAssertEqual(Hex.encode(katData(images: true).tlsSerialized), withImages)
        let back = try MarmotGroupData(tlsSerialized: XCTUnwrap(Hex.decode(withImages)))
        XCTAssertEqual(back.version, 2)
        XCTAssertEqual(back.admins, [[UInt8](repeating: 0x01, count: 32), [UInt8](repeating: 0x22, count: 32)])
        XCTAssertEqual(back.relays, ["wss://a.example", "wss://b.example"])
        XCTAssertEqual(back.imageNonce, [UInt8](repeating: 0x55, count: 12))
        XCTAssertTrue(back.imageUploadKey?.constantTimeEquals(SecureBytes(copying: [UInt8](repeating: 0x66, count: 32))) ?? false)
        XCTAssertEqual(back.tlsSerialized, Hex.decode(withImages))
    }

    func testGroupDataRoundTripAndLookup() throws {
        let admin = Secp256k1.PrivateKey().publicKey.rawRepresentation
        let data = try MarmotGroupData.create(profile: .mip, name: "Ünïcode 👋", description: "", admins: [admin], relays: ["wss://r.example"],
                                              rng: SeededRandom(seed: 7))
        XCTAssertEqual(data.nostrGroupID, SeededRandom(seed: 7).bytes(32))
        let ext = try data.groupContextExtension()
        XCTAssertEqual(ext.extensionType, 0xf2ee)
        let other = MLSExtension(type: 0x0003, data: [0, 0, 0])
        let back = try MarmotGroupData(extensions: [other, ext])
        XCTAssertEqual(back, data)
        XCTAssertTrue(back.isAdmin(admin))
        XCTAssertFalse(back.isAdmin([UInt8](repeating: 9, count: 32)))
        XCTAssertEqual(code { try MarmotGroupData(extensions: [other]) }, .invalidGroupData)
        XCTAssertEqual(code { try MarmotGroupData(extensions: [ext, ext]) }, .invalidGroupData)
    }

    func testGroupDataFutureVersionIsReadAndVersionZeroRefused() throws {
        var bytes = Hex.decode(kat + "00000000")!
        bytes[1] = 9
        XCTAssertEqual(try MarmotGroupData(tlsSerialized: bytes).version, 9)
        bytes[1] = 0
        XCTAssertEqual(code { try MarmotGroupData(tlsSerialized: bytes) }, .invalidGroupData)
    }

    // MARK: kind-445 content

    func testExporterAndCipherKnownAnswer() throws {
        // Computed independently (Python `cryptography`): MLS-Exporter("marmot", "group-event", 32)
        // of exporter_secret 00..1f, then ChaCha20-Poly1305 with nonce 64..6f and no AAD.
        let key = MarmotExporter.groupEventKey(exporterSecret: SecureBytes(copying: Array(0..<32)))
        XCTAssertEqual(Hex.encode(key.exportBytes()), "9cd1c46ce77ddc934668779dfd6ca83c978fc10b1e0a721e07258d35a5732d19")
        let content = "ZGVmZ2hpamtsbW5vLVUESVlevSYwNjFr9CURyg1/9Oc5tsqMzFz25hxfYg7dGvN9G0BqXU19zQg="
        XCTAssertEqual(try GroupEventCipher.open(content, key: key), Array("marmot kind-445 known answer".utf8))
    }

    func testCipherRoundTripUsesTheInjectedNonce() throws {
        let key = SecureBytes(copying: SeededRandom(seed: 1).bytes(32))
        let content = try GroupEventCipher.seal(Array("hello".utf8), key: key, rng: SeededRandom(seed: 2))
        let raw = try XCTUnwrap(Base64.decode(content))
        XCTAssertEqual(raw.count, 12 + 5 + 16)
        XCTAssertEqual(Array(raw[0..<12]), SeededRandom(seed: 2).bytes(12))
        XCTAssertEqual(try GroupEventCipher.open(content, key: key), Array("hello".utf8))
        XCTAssertEqual(code { try GroupEventCipher.open(content, key: SecureBytes(copying: [UInt8](repeating: 0, count: 32))) }, .decryptionFailed)
        XCTAssertEqual(try GroupEventCipher.open(try GroupEventCipher.seal([], key: key), key: key), [])
    }

    func testGroupEventShapeMatchesMDK() throws {
        let mdk = try sample("group_message_445.json")
        let mdkCommit = try sample("commit_445.json")
        XCTAssertNoThrow(try mdk.verify())
        let gid = try MarmotGroupEvent.nostrGroupID(of: mdk)
        XCTAssertEqual(try MarmotGroupEvent.nostrGroupID(of: mdkCommit), gid, "nostr_group_id does not rotate across a commit")
        XCTAssertNotEqual(mdk.pubkey, mdkCommit.pubkey, "a fresh signing key per event")
        let (envelopeID, sealed) = try MarmotGroupEvent.envelope(mdk, now: mdk.createdAt)
        XCTAssertEqual(envelopeID, gid)
        XCTAssertGreaterThanOrEqual(sealed.count, GroupEventCipher.minimumSealedByteCount)
        XCTAssertEqual(code { try MarmotGroupEvent.open(mdk, keys: [SecureBytes(copying: [UInt8](repeating: 1, count: 32))], now: mdk.createdAt) },
                       .decryptionFailed)

        let key = SecureBytes(copying: SeededRandom(seed: 3).bytes(32))
        let message: [UInt8] = [0, 1, 0, 2] + Array(repeating: 0xab, count: 40)
        let rng = SeededRandom(seed: 4)
        let a = try MarmotGroupEvent.make(mlsMessage: message, nostrGroupID: gid, key: key, createdAt: mdk.createdAt, rng: rng)
        let b = try MarmotGroupEvent.make(mlsMessage: message, nostrGroupID: gid, key: key, createdAt: mdk.createdAt, rng: rng)
        XCTAssertEqual(a.kind, 445)
        XCTAssertEqual(a.tags, mdk.tags)
        XCTAssertNotEqual(a.pubkey, b.pubkey)
        XCTAssertNoThrow(try a.verify())
        let older = SecureBytes(copying: [UInt8](repeating: 5, count: 32))
        let opened = try MarmotGroupEvent.open(a, keys: [older, key], now: a.createdAt)
        XCTAssertEqual(opened.mlsMessage, message)
        XCTAssertEqual(opened.keyIndex, 1)
    }

    func testGroupEventTimestampWindow() throws {
        let key = SecureBytes(copying: [UInt8](repeating: 7, count: 32))
        let gid = [UInt8](repeating: 8, count: 32)
        let t: Int64 = 1_800_000_000
        let e = try MarmotGroupEvent.make(mlsMessage: [1, 2, 3], nostrGroupID: gid, key: key, createdAt: t)
        XCTAssertNoThrow(try MarmotGroupEvent.envelope(e, now: t - 300))
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(e, now: t - 301) }, .invalidEvent)
        XCTAssertNoThrow(try MarmotGroupEvent.envelope(e, now: t + 45 * 86400))
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(e, now: t + 45 * 86400 + 1) }, .invalidEvent)
    }

    // MARK: kind 444

    func testParsesMDKWelcomeRumors() throws {
        let forMDK = try sample("welcome_rumor_444_mdk_member.json")
        let forIK = try sample("welcome_rumor_444_invitekit_member.json")
        let a = try MarmotWelcomeRumor.parse(forMDK)
        let b = try MarmotWelcomeRumor.parse(forIK)
        XCTAssertEqual(a.relays, ["wss://relay.example.com", "wss://relay2.example.com"])
        XCTAssertEqual(a.client, "MDK/0.8.0")
        XCTAssertEqual(a.keyPackageEventID, try sample("mdk_keypackage_30443.json").id)
        XCTAssertEqual(b.keyPackageEventID, try sample("invitekit_keypackage_30443.json").id)
        XCTAssertEqual(a.welcomeMessage, b.welcomeMessage, "one commit, one Welcome: only the e tag differs")
        XCTAssertEqual(Array(a.welcomeMessage[0..<4]), [0, 1, 0, 3])
    }

    func testBuildsWelcomeRumorsByteForByteAsMDK() throws {
        let mdk = try sample("welcome_rumor_444_invitekit_member.json")
        let parsed = try MarmotWelcomeRumor.parse(mdk)
        let committer = try Secp256k1.XOnlyPublicKey(rawRepresentation: XCTUnwrap(Hex.decode(mdk.pubkey)))
        let ours = try MarmotWelcomeRumor.make(welcomeMessage: parsed.welcomeMessage, keyPackageEventID: parsed.keyPackageEventID,
                                               relays: parsed.relays, committer: committer, createdAt: mdk.createdAt, client: "MDK/0.8.0")
        XCTAssertEqual(ours.id, mdk.id)
        XCTAssertEqual(ours.tags, mdk.tags)
        XCTAssertEqual(ours.content, mdk.content)
        XCTAssertNil(ours.sig)
        XCTAssertEqual(code { try MarmotWelcomeRumor.make(welcomeMessage: parsed.welcomeMessage, keyPackageEventID: parsed.keyPackageEventID,
                                                          relays: [], committer: committer) }, .invalidRelays)
        XCTAssertEqual(code { try MarmotWelcomeRumor.make(welcomeMessage: [0, 1, 0, 1, 9], keyPackageEventID: parsed.keyPackageEventID,
                                                          relays: parsed.relays, committer: committer) }, .invalidEvent)
    }

    // MARK: application messages

    func testApplicationMessageRumor() throws {
        let sender = Secp256k1.PrivateKey().publicKey
        let (rumor, bytes) = try MarmotApplicationMessage.make(content: "hi", sender: sender, createdAt: 1_800_000_000)
        XCTAssertEqual(rumor.kind, MarmotProfile.chatMessageKind)
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix("{\"id\":\"\(rumor.id)\",\"pubkey\":"))
        XCTAssertFalse(String(decoding: bytes, as: UTF8.self).contains("\"sig\""))
        XCTAssertEqual(try MarmotApplicationMessage.decode(bytes, senderIdentity: sender.rawRepresentation), rumor)
        let other = Secp256k1.PrivateKey().publicKey.rawRepresentation
        XCTAssertEqual(code { try MarmotApplicationMessage.decode(bytes, senderIdentity: other) }, .credentialMismatch)
    }

    /// `application-messages.md` ("Encoding"): exactly the six members. An unknown member, a
    /// duplicate key, a `sig` or a wrong id is refused, so no two readers see two events.
    func testApplicationMessageEncodingIsExact() throws {
        let sender = Secp256k1.PrivateKey().publicKey
        let (rumor, bytes) = try MarmotApplicationMessage.make(content: "hi", tags: [["e", String(repeating: "ab", count: 32)]], sender: sender,
                                                               createdAt: 1_800_000_000)
        let json = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(try MarmotApplicationMessage.decode(bytes, senderIdentity: sender.rawRepresentation).tags, rumor.tags, "tags are kept")
        func refused(_ text: String) -> MLSError.Code? {
            code { try MarmotApplicationMessage.decode(Array(text.utf8), senderIdentity: sender.rawRepresentation) }
        }
        XCTAssertEqual(refused(String(json.dropLast()) + ",\"extra\":1}"), .invalidValue, "an unknown member")
        XCTAssertEqual(refused(String(json.dropLast()) + ",\"kind\":9}"), .invalidValue, "a duplicate key")
        XCTAssertEqual(refused(String(json.dropLast()) + ",\"sig\":\"\(String(repeating: "00", count: 64))\"}"), .invalidValue, "a sig")
        XCTAssertEqual(refused(json.replacingOccurrences(of: "\"hi\"", with: "\"ho\"")), .invalidValue, "an id that does not match")
    }
}
