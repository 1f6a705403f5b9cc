import XCTest
import InviteKitCrypto
@testable import InviteKitInvites

final class SignedInviteTests: XCTestCase {
    let groupId = "5f1c1e4b2a9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa00"

    func make(_ options: InviteOptions = InviteOptions(relays: ["wss://relay.example"])) throws -> SignedInvite {
        try SignedInvite.create(conversationID: groupId, creator: TestKeys.creator, options: options, using: SeededRandom(seed: 1))
    }

    func testCreateVerifyRoundTripThroughSlug() throws {
        let invite = try make()
        XCTAssertEqual(invite.signature.count, 65)
        XCTAssertEqual(try invite.verify().xOnly, TestKeys.creator.publicKey)
        for compress in [true, false] {
            let back = try SignedInvite(slug: invite.encodedSlug(compress: compress))
            XCTAssertEqual(back.payloadBytes, invite.payloadBytes)
            XCTAssertEqual(try back.verify().xOnly, TestKeys.creator.publicKey)
        }
        XCTAssertEqual(try invite.conversationID(creatorKey: TestKeys.creator), groupId)
        XCTAssertThrowsError(try invite.conversationID(creatorKey: TestKeys.other)) {
            XCTAssertEqual(($0 as? InviteError)?.code, .tokenDecryptionFailed)
        }
        XCTAssertTrue(InviteTag.isValid(invite.payload.tag)); XCTAssertEqual(invite.payload.tag.count, InviteTag.length)
    }

    /// One tag rule (PROTOCOL §3.6) for the builder and the CLI: 1–64 of [A-Za-z0-9]. The builder
    /// used to take any non-empty string, so a tag the CLI refuses could still be signed.
    func testBuilderTakesExactlyTheValidTags() throws {
        for good in ["a", "AbCdEfGhIj", String(repeating: "Z", count: InviteTag.maxLength)] {
            XCTAssertTrue(InviteTag.isValid(good))
            XCTAssertEqual(try make(InviteOptions(relays: ["wss://relay.example"], tag: good)).payload.tag, good)
        }
        for bad in ["", "has space", "tag-1", "ümlaut", String(repeating: "Z", count: InviteTag.maxLength + 1)] {
            XCTAssertFalse(InviteTag.isValid(bad), bad)
            XCTAssertThrowsError(try make(InviteOptions(relays: ["wss://relay.example"], tag: bad)), bad) {
                XCTAssertEqual(($0 as? InviteError)?.code, .invalidArgument)
            }
        }
    }

    func testExpectedCreator() throws {
        let invite = try make()
        XCTAssertNoThrow(try invite.verify(expectedCreator: TestKeys.creator.publicKey))
        XCTAssertThrowsError(try invite.verify(expectedCreator: TestKeys.other.publicKey)) {
            XCTAssertEqual(($0 as? InviteError)?.code, .creatorMismatch)
        }
    }

    func testCreatorInboxIdMustMatchRecoveredKey() throws {
        var payload = try make().payload
        payload.creatorInboxId = TestKeys.other.publicKey.rawRepresentation
        let forged = try SignedInvite.sign(payload, with: TestKeys.creator)
        XCTAssertThrowsError(try forged.verify()) { XCTAssertEqual(($0 as? InviteError)?.code, .invalidSignature) }
    }

    func testTamperedPayloadFailsVerification() throws {
        let invite = try make()
        var bytes = invite.payloadBytes
        bytes[bytes.count - 1] ^= 0x01
        let tampered = try SignedInvite(payloadBytes: bytes, signature: invite.signature)
        XCTAssertThrowsError(try tampered.verify()) { XCTAssertEqual(($0 as? InviteError)?.code, .invalidSignature) }
    }

    func testUnknownPayloadFieldsStaySigned() throws {
        let invite = try make()
        let extended = invite.payloadBytes + [0xA8, 0x1F, 0x01]  // field 501 varint 1
        let sig = try TestKeys.creator.recoverableSignature(digest32: SHA256.hash(extended))
        let signed = try SignedInvite(payloadBytes: extended, signature: sig)
        let back = try SignedInvite(slug: signed.encodedSlug())
        XCTAssertEqual(back.payloadBytes, extended)
        XCTAssertEqual(back.payload.unknownFields, [[0xA8, 0x1F, 0x01]])
        XCTAssertNoThrow(try back.verify())
    }

    func testLongInviteIsCompressedAndStarred() throws {
        let invite = try make(InviteOptions(relays: (0..<InvitePayload.maxRelays).map { "wss://relay\($0).example.com" },
                                            name: String(repeating: "Long name ", count: 40)))
        let slug = invite.encodedSlug()
        let wire = try InviteSlug.decode(slug)
        XCTAssertEqual(wire.first, 0x1F)
        XCTAssertTrue(slug.contains("*"))
        let parts = slug.split(separator: "*")
        XCTAssertTrue(parts.dropLast().allSatisfy { $0.count == 300 })
        XCTAssertEqual(try SignedInvite(slug: slug).payloadBytes, invite.payloadBytes)
    }

    func testShortInviteIsNotCompressedWhenThatDoesNotHelp() throws {
        let invite = try make(InviteOptions())
        let wire = try InviteSlug.decode(invite.encodedSlug())
        XCTAssertEqual(wire.first, 0x0A)
    }

    func testZlibVariantsDecode() throws {
        let invite = try make(InviteOptions(relays: ["wss://relay.example"], name: String(repeating: "ab", count: 100)))
        let wire = invite.serializedBytes()
        let z = zlibCompress(wire)
        let n = UInt32(wire.count)
        let framed = [0x1F, UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + z
        for form in [framed, z] {
            let slug = InviteSlug.encode(form)
            XCTAssertEqual(try SignedInvite(slug: slug).payloadBytes, invite.payloadBytes)
        }
    }

    func testConversationTokenForms() throws {
        let k = TestKeys.creator
        let id = ConversationToken.creatorId(for: k.publicKey)
        for conv in ["f47ac10b-58cc-4372-a567-0e02b2c3d479", "F47AC10B-58CC-4372-A567-0E02B2C3D479", "g",
                     String(repeating: "x", count: 255), String(repeating: "y", count: 256), "ünïcødé"] {
            let t = try ConversationToken.seal(conversationID: conv, creatorKey: k, creatorId: id, using: SeededRandom(seed: 9))
            XCTAssertEqual(t.first, 0x01)
            XCTAssertEqual(try ConversationToken.open(t, creatorKey: k, creatorId: id), conv)
        }
        XCTAssertEqual(try ConversationToken.encodePlaintext("f47ac10b-58cc-4372-a567-0e02b2c3d479").count, 17)
        XCTAssertEqual(try ConversationToken.encodePlaintext(String(repeating: "y", count: 256)).prefix(4), [2, 0, 1, 0])
        XCTAssertThrowsError(try ConversationToken.encodePlaintext(""))
        let t = try ConversationToken.seal(conversationID: "abc", creatorKey: k, creatorId: id)
        XCTAssertThrowsError(try ConversationToken.open(t, creatorKey: k, creatorId: id + "x")) {
            XCTAssertEqual(($0 as? InviteError)?.code, .tokenDecryptionFailed)
        }
    }

    func testInviteTagIsUniformAlphabet() {
        let rng = SeededRandom(seed: 42)
        var counts = [UInt8: Int]()
        for _ in 0..<2000 {
            let t = InviteTag.generate(using: rng)
            XCTAssertTrue(InviteTag.isValid(t)); XCTAssertEqual(t.count, InviteTag.length)
            for b in t.utf8 { counts[b, default: 0] += 1 }
        }
        XCTAssertEqual(counts.count, 62)
        // 20000 draws over 62 symbols: expect ~322 each; a gross bias would break these bounds.
        XCTAssertTrue(counts.values.allSatisfy { $0 > 220 && $0 < 430 })
    }

    func testLinkForms() throws {
        let invite = try make()
        let slug = invite.encodedSlug()
        let forms = [
            "https://invitekit.app/v2?i=\(slug)", "https://popup.convos.org/i/\(slug)",
            "https://x.example/join?foo=1&code=\(slug)", "convos://join/\(slug)", "convos://invite/\(slug)",
            "  \(slug)\n", "https://x.example/v2?i=\(slug)#frag",
        ]
        for f in forms {
            XCTAssertEqual(try InviteLink.slug(from: f).replacingOccurrences(of: " ", with: "").trimmingCharacters(in: .whitespacesAndNewlines), slug, f)
            XCTAssertEqual(try SignedInvite(link: f).payloadBytes, invite.payloadBytes, f)
        }
        XCTAssertEqual(try invite.url(domain: "join.example.org"), "https://join.example.org/v2?i=\(slug)")
        XCTAssertThrowsError(try invite.url(domain: "evil.example/path?"))
        XCTAssertThrowsError(try InviteLink.slug(from: "ftp://x/y")) { XCTAssertEqual(($0 as? InviteError)?.code, .unrecognizedURL) }
        XCTAssertThrowsError(try InviteLink.slug(from: "https://x.example/v2")) { XCTAssertEqual(($0 as? InviteError)?.code, .unrecognizedURL) }
    }

    func testAnyInviteDistinguishesFormats() throws {
        let invite = try make()
        guard case .signed = try AnyInvite(parsing: invite.encodedSlug()) else { return XCTFail() }
        let code = InviteCode(relay: "wss://r.example", inviter: TestKeys.creator.publicKey, groupId: "g")
        guard case .whistle(let c) = try AnyInvite(parsing: code.code) else { return XCTFail() }
        XCTAssertEqual(c, code)
        guard case .whistle = try AnyInvite(parsing: code.url) else { return XCTFail() }
    }
}

func zlibCompress(_ bytes: [UInt8]) -> [UInt8] { InviteCompression.rawDeflate(bytes, zlibWrapped: true)! }

final class RelayURLCheckTests: XCTestCase {
    func testRelayShapes() throws {
        for ok in ["wss://relay.damus.io", "ws://localhost:7777", "WSS://Relay.Example/path?x=1"] { XCTAssertTrue(RelayURLCheck.isValid(ok), ok) }
        for bad in ["https://relay", "wss://", "wss:///path", "wss://a b", "wss://a\n", "relay.damus.io", "", "wss://" + String(repeating: "a", count: 2050)] {
            XCTAssertFalse(RelayURLCheck.isValid(bad), bad)
        }
        XCTAssertThrowsError(try SignedInvite.create(conversationID: "g", creator: TestKeys.creator,
                                                     options: InviteOptions(relays: ["https://nope"]))) {
            XCTAssertEqual(($0 as? InviteError)?.code, .invalidRelay)
        }
    }
}
