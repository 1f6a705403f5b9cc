import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS

/// Malformed and adversarial input to the Marmot codecs: each is refused with a typed error.
final class MarmotHostileInputTests: XCTestCase {
    func code(_ body: () throws -> Any) -> MLSError.Code? {
        do { _ = try body(); return nil } catch { return (error as? MLSError)?.code }
    }

    func base() -> MarmotGroupData {
        MarmotGroupData(nostrGroupID: [UInt8](repeating: 1, count: 32), name: "n", admins: [[UInt8](repeating: 2, count: 32)],
                        relays: ["wss://r.example"])
    }

    func testGroupDataTruncationsAndTrailingBytes() {
        let bytes = base().tlsSerialized
        for n in 0..<bytes.count {
            XCTAssertNotNil(code { try MarmotGroupData(tlsSerialized: Array(bytes[0..<n])) }, "prefix \(n)")
        }
        XCTAssertEqual(code { try MarmotGroupData(tlsSerialized: bytes + [0]) }, .trailingBytes)
    }

    func testGroupDataFieldRules() {
        var d = base(); d.admins = [[1, 2, 3]]
        XCTAssertEqual(code { try d.groupContextExtension() }, .invalidGroupData)
        d = base(); d.admins.append(d.admins[0])
        XCTAssertEqual(code { try d.groupContextExtension() }, .invalidGroupData)
        d = base(); d.relays = ["http://r.example"]
        XCTAssertEqual(code { try d.groupContextExtension() }, .invalidGroupData)
        d = base(); d.imageNonce = [UInt8](repeating: 0, count: 11)
        XCTAssertEqual(code { try d.groupContextExtension() }, .invalidGroupData)
        d = base(); d.imageKey = SecureBytes(copying: [1])
        XCTAssertEqual(code { try d.groupContextExtension() }, .invalidGroupData)
        d = base(); d.nostrGroupID = [1]
        XCTAssertEqual(code { try d.groupContextExtension() }, .invalidGroupData)
    }

    func testGroupDataBadAdminVectorAndUTF8() {
        var w = TLSWriter()
        w.writeUInt16(2); w.writeBytes([UInt8](repeating: 0, count: 32))
        w.writeOpaque([0xff, 0xfe]); w.writeOpaque([UInt8]())
        XCTAssertEqual(code { try MarmotGroupData(tlsSerialized: w.bytes + [0, 0, 0, 0, 0, 0]) }, .invalidGroupData)
        var v = TLSWriter()
        v.writeUInt16(2); v.writeBytes([UInt8](repeating: 0, count: 32))
        v.writeOpaque([UInt8]()); v.writeOpaque([UInt8]()); v.writeOpaque([UInt8](repeating: 1, count: 33))
        XCTAssertEqual(code { try MarmotGroupData(tlsSerialized: v.bytes + [0, 0, 0, 0, 0]) }, .invalidGroupData)
    }

    func testCipherRefusesShortOrMalformedContent() {
        let key = SecureBytes(copying: [UInt8](repeating: 3, count: 32))
        XCTAssertEqual(code { try GroupEventCipher.open(Base64.encode([UInt8](repeating: 0, count: 27)), key: key) }, .invalidEvent)
        XCTAssertEqual(code { try GroupEventCipher.open("AAAA AAAA", key: key) }, .invalidEvent)
        XCTAssertEqual(code { try GroupEventCipher.open(String(Base64.encode([UInt8](repeating: 0, count: 40)).dropLast()), key: key) }, .invalidEvent)
        XCTAssertEqual(code { try GroupEventCipher.seal([1], key: SecureBytes(copying: [1])) }, .invalidKey)
        var sealed = Base64.decode(try! GroupEventCipher.seal([1, 2, 3], key: key))!
        sealed[sealed.count - 1] ^= 1
        XCTAssertEqual(code { try GroupEventCipher.open(bytes: sealed, key: key) }, .decryptionFailed)
    }

    func testGroupEventEnvelopeRules() throws {
        let key = SecureBytes(copying: [UInt8](repeating: 7, count: 32))
        let t: Int64 = 1_800_000_000
        let e = try MarmotGroupEvent.make(mlsMessage: [1], nostrGroupID: [UInt8](repeating: 8, count: 32), key: key, createdAt: t)
        let signer = Secp256k1.PrivateKey()
        func resigned(_ tags: [[String]], kind: Int = 445) throws -> NostrEvent {
            try EventTemplate(kind: kind, content: e.content, tags: tags, createdAt: t).signed(by: signer)
        }
        let h = e.tags[0]
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(try resigned([["encoding", "base64"]]), now: t) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(try resigned([h, h, ["encoding", "base64"]]), now: t) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(try resigned([["h", "abcd"], ["encoding", "base64"]]), now: t) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(try resigned([h]), now: t) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(try resigned([h, ["encoding", "hex"]]), now: t) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(try resigned(e.tags, kind: 444), now: t) }, .invalidEvent)
        var forged = e; forged.content = Base64.encode([UInt8](repeating: 0, count: 40))
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(forged, now: t) }, .invalidSignature)
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(e, now: Int64.min) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotGroupEvent.envelope(e, now: Int64.max) }, .invalidEvent)
    }

    func testWelcomeRumorRules() throws {
        let committer = Secp256k1.PrivateKey().publicKey
        let welcome: [UInt8] = [0, 1, 0, 3, 0xaa]
        let kpID = String(repeating: "ab", count: 32)
        let good = try MarmotWelcomeRumor.make(welcomeMessage: welcome, keyPackageEventID: kpID, relays: ["wss://r.example"], committer: committer, createdAt: 1)
        XCTAssertNoThrow(try MarmotWelcomeRumor.parse(good))
        func with(_ tags: [[String]], content: String? = nil, kind: Int = 444) -> NostrEvent {
            EventTemplate(kind: kind, content: content ?? good.content, tags: tags, createdAt: 1).rumor(pubkey: committer)
        }
        let relays = ["relays", "wss://r.example"], e = ["e", kpID], enc = ["encoding", "base64"], client = ["client", "x"]
        // The current profile's rumor: exactly e and relays, no encoding tag (MDK 0.9.14).
        XCTAssertNoThrow(try MarmotWelcomeRumor.parse(with([e, relays])))
        XCTAssertEqual(code { try MarmotWelcomeRumor.parse(with([["relays"], e, enc, client])) }, .invalidRelays)
        XCTAssertEqual(code { try MarmotWelcomeRumor.parse(with([relays, ["e", ""], enc, client])) }, .invalidEvent)
        XCTAssertNoThrow(try MarmotWelcomeRumor.parse(with([relays, e, client, client])))
        XCTAssertEqual(code { try MarmotWelcomeRumor.parse(with([relays, e, ["encoding", "hex"]])) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotWelcomeRumor.parse(with([relays, e, ["client", ""], enc])) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotWelcomeRumor.parse(with([relays, e, enc], content: "AAEAAQ==")) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotWelcomeRumor.parse(with([relays, e, enc], content: "AAEAAw")) }, .invalidEvent)
        XCTAssertEqual(code { try MarmotWelcomeRumor.parse(with([relays, e, enc], kind: 445)) }, .invalidEvent)
        var tampered = good; tampered.content = "AAEAAwAA"
        XCTAssertEqual(code { try MarmotWelcomeRumor.parse(tampered) }, .invalidEvent)
    }

    func testApplicationMessageRefusals() throws {
        let sender = Secp256k1.PrivateKey()
        let identity = sender.publicKey.rawRepresentation
        XCTAssertEqual(code { try MarmotApplicationMessage.decode(Array("not json".utf8), senderIdentity: identity) }, .invalidValue)
        let signed = try EventTemplate(kind: MarmotProfile.chatMessageKind, content: "x", createdAt: 5).signed(by: sender)
        XCTAssertEqual(code { try MarmotApplicationMessage.decode(signed.jsonBytes, senderIdentity: identity) }, .invalidValue)
        XCTAssertEqual(code { try MarmotApplicationMessage.encode(signed) }, .invalidValue)
        var rumor = EventTemplate(kind: MarmotProfile.chatMessageKind, content: "x", createdAt: 5).rumor(pubkey: sender.publicKey)
        rumor.content = "changed"
        XCTAssertEqual(code { try MarmotApplicationMessage.decode(rumor.jsonBytes, senderIdentity: identity) }, .invalidValue)
    }
}
