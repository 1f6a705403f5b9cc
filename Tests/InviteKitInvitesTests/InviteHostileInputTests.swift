import XCTest
import InviteKitCrypto
@testable import InviteKitInvites

/// Hostile input: every failure must be a typed error, never a crash, hang or large allocation.
final class InviteHostileInputTests: XCTestCase {
    func sample() throws -> SignedInvite {
        try SignedInvite.create(
            conversationID: "group", creator: TestKeys.creator,
            options: InviteOptions(relays: ["wss://relay.example"], name: String(repeating: "n", count: 120), singleUse: true),
            using: SeededRandom(seed: 11))
    }

    func testPayloadTruncatedAtEveryByte() throws {
        let bytes = try sample().payloadBytes
        for n in 0..<bytes.count {
            // Either a typed error or a shorter valid payload; never a trap.
            _ = try? InvitePayload(serializedBytes: Array(bytes.prefix(n)))
        }
        var typed = 0
        for n in 1..<bytes.count {
            do { _ = try InvitePayload(serializedBytes: Array(bytes.prefix(n))) } catch { typed += 1 }
        }
        XCTAssertGreaterThan(typed, bytes.count / 2)
    }

    func testSlugTruncatedAtEveryCharacterNeverVerifies() throws {
        let invite = try sample()
        for compress in [true, false] {
            let slug = Array(invite.encodedSlug(compress: compress))
            for n in 0..<slug.count {
                let cut = String(slug.prefix(n))
                if let parsed = try? SignedInvite(slug: cut) {
                    XCTAssertThrowsError(try parsed.verify(), "prefix \(n) verified")
                }
            }
        }
    }

    func testEveryBitFlipOfTheWireIsRejected() throws {
        let invite = try sample()
        for wire in [invite.serializedBytes(), InviteCompression.compressIfSmaller(invite.serializedBytes())] {
            for i in 0..<wire.count {
                for bit in 0..<8 {
                    var w = wire
                    w[i] ^= UInt8(1 << bit)
                    let slug = InviteSlug.encode(w)
                    guard let parsed = try? SignedInvite(slug: slug) else { continue }
                    // A flip that still parses must fail verification, unless it only touched
                    // bytes outside the signed payload and the signature (impossible here).
                    if (try? parsed.verify()) != nil {
                        XCTAssertEqual(parsed.payloadBytes, invite.payloadBytes, "flip \(i):\(bit) verified with a changed payload")
                        XCTAssertEqual(parsed.signature, invite.signature)
                    }
                }
            }
        }
    }

    func testRandomGarbageGivesTypedErrors() {
        let rng = SeededRandom(seed: 77)
        for n in [0, 1, 2, 5, 6, 17, 64, 300, 2000] {
            for _ in 0..<50 {
                let junk = rng.bytes(n)
                XCTAssertThrowsError(try SignedInvite(slug: InviteSlug.encode([0x1F] + junk)))
                _ = try? SignedInvite(slug: InviteSlug.encode(junk))
                _ = try? SignedInvite(slug: InviteSlug.encode([0x78, 0x9C] + junk))
                _ = try? InviteCode(code: Base64.encode(junk))
                _ = try? AnyInvite(parsing: String(decoding: junk, as: UTF8.self))
                _ = try? ApprovalURL(url: "whistle://addmember/" + String(decoding: junk, as: UTF8.self))
                _ = try? ConversationToken.open(junk, creatorKey: TestKeys.creator, creatorId: "x")
            }
        }
    }

    func testDecompressionBombsStopAtTheCap() throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        let rawBomb = InviteCompression.rawDeflate(zeros)!
        let zlibBomb = InviteCompression.rawDeflate(zeros, zlibWrapped: true)!
        func framed(_ size: Int, _ body: [UInt8]) -> [UInt8] {
            [0x1F, UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + body
        }
        func code(_ b: [UInt8]) -> InviteError.Code? {
            do { _ = try InviteCompression.decompress(b); return nil } catch { return error.code }
        }
        XCTAssertEqual(code(framed(8 << 20, rawBomb)), .decompressedTooLarge)
        // Lying about the size: declared within limits, the stream is far bigger.
        XCTAssertEqual(code(framed(rawBomb.count * 100, rawBomb)), .sizeMismatch)
        XCTAssertEqual(code(framed(1 << 20, rawBomb)), .compressionRatioExceeded)
        XCTAssertEqual(code(zlibBomb), .compressionRatioExceeded)
        // A bare zlib stream under the ratio but over 1 MiB.
        let big = SeededRandom(seed: 1).bytes(1 << 19) + [UInt8](repeating: 0, count: 1 << 20)
        XCTAssertEqual(code(InviteCompression.rawDeflate(big, zlibWrapped: true)!), .decompressedTooLarge)
        // A bomb inside a slug through the public API.
        XCTAssertThrowsError(try SignedInvite(slug: InviteSlug.encode(zlibBomb)))
        XCTAssertThrowsError(try SignedInvite(slug: InviteSlug.encode(framed(1 << 20, rawBomb))))
    }

    func testOversizeInputsAreRefusedBeforeWork() {
        func code(_ f: () throws -> Void) -> InviteError.Code? {
            do { try f(); return nil } catch { return (error as? InviteError)?.code }
        }
        let huge = String(repeating: "A", count: 10 << 20)
        XCTAssertEqual(code { _ = try SignedInvite(slug: huge) }, .inputTooLarge)
        XCTAssertEqual(code { _ = try SignedInvite(link: "https://x.example/v2?i=" + huge) }, .inputTooLarge)
        XCTAssertEqual(code { _ = try InviteCode(code: huge) }, .inputTooLarge)
        XCTAssertEqual(code { _ = try InviteCode(url: "whistle://invite/" + huge) }, .inputTooLarge)
        XCTAssertEqual(code { _ = try ApprovalURL(url: huge) }, .inputTooLarge)
    }

    func testNonUTF8() {
        // Strings in the payload must be UTF-8.
        XCTAssertThrowsError(try InvitePayload(serializedBytes: [0x1A, 0x02, 0xC3, 0x28])) {
            XCTAssertEqual(($0 as? ProtobufError)?.code, .invalidUTF8)
        }
        // Whistle JSON that is not UTF-8.
        XCTAssertThrowsError(try InviteCode(code: Base64.encode([0x7B, 0xFF, 0xFE, 0x7D]))) {
            XCTAssertEqual(($0 as? InviteError)?.code, .invalidJSON)
        }
        // Percent escapes that decode to invalid UTF-8.
        XCTAssertThrowsError(try InviteCode(url: "whistle://invite/%FF%FE")) { XCTAssertEqual(($0 as? InviteError)?.code, .invalidEncoding) }
        XCTAssertThrowsError(try ConversationToken.decodePlaintext([0x02, 0x02, 0xC3, 0x28])) {
            XCTAssertEqual(($0 as? InviteError)?.code, .tokenMalformed)
        }
    }

    func testDeepNestingInWhistleJSON() {
        let npub = InviteCode(relay: "", inviter: TestKeys.creator.publicKey, groupId: "").inviterNpub
        for depth in [33, 100, 1000] {
            let nest = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
            let json = "{\"relay\":\"r\",\"inviterNpub\":\"\(npub)\",\"groupId\":\"g\",\"x\":\(nest)}"
            let code = Base64.encode(Array(json.utf8))
            guard code.utf8.count <= InviteCode.maxInputLength else {
                XCTAssertThrowsError(try InviteCode(code: code)) { XCTAssertEqual(($0 as? InviteError)?.code, .inputTooLarge) }
                continue
            }
            XCTAssertThrowsError(try InviteCode(code: code)) { XCTAssertEqual(($0 as? InviteError)?.code, .jsonTooDeep) }
        }
        // Deep nesting cannot reach protobuf: the codec has no nested messages and refuses groups.
        XCTAssertThrowsError(try InvitePayload(serializedBytes: [UInt8](repeating: 0x5B, count: 10_000))) {
            XCTAssertEqual(($0 as? ProtobufError)?.code, .groupWireType)
        }
    }

    func testHugeLengthPrefixDoesNotAllocate() {
        // Claims 2^62 bytes of token: must fail on bounds, not try to allocate.
        var w = ProtoWriter()
        w.writeTag(1, .lengthDelimited)
        w.writeVarint(1 << 62)
        XCTAssertThrowsError(try InvitePayload(serializedBytes: w.bytes)) { XCTAssertEqual(($0 as? ProtobufError)?.code, .lengthPastEnd) }
        XCTAssertThrowsError(try SignedInvite(serializedBytes: w.bytes)) { XCTAssertEqual(($0 as? InviteError)?.code, .malformedProtobuf) }
    }

    func testWhistleCodeTruncatedAtEveryCharacterAndEveryBitFlip() throws {
        let code = InviteCode(relay: "wss://relay.example", inviter: TestKeys.creator.publicKey, groupId: "abc").code
        let chars = Array(code.utf8)
        for n in 0..<(chars.count - 2) {  // dropping only padding still decodes
            XCTAssertThrowsError(try InviteCode(code: String(decoding: chars.prefix(n), as: UTF8.self)), "prefix \(n)")
        }
        let json = Array(InviteCode(relay: "wss://relay.example", inviter: TestKeys.creator.publicKey, groupId: "abc").canonicalJSON.utf8)
        var accepted = 0
        for i in 0..<json.count {
            for bit in 0..<8 {
                var j = json
                j[i] ^= UInt8(1 << bit)
                do {
                    let c = try InviteCode(code: Base64.encode(j))
                    // Only flips inside the relay or group id strings can survive; the npub's
                    // checksum catches every flip in it.
                    XCTAssertEqual(c.inviterNpub, NIP19Check.npub)
                    accepted += 1
                } catch {
                    XCTAssertFalse(error.code.rawValue.isEmpty)  // typed: always an InviteError
                }
            }
        }
        XCTAssertLessThan(accepted, json.count * 8 / 2)
    }
}

enum NIP19Check {
    static let npub = InviteCode(relay: "", inviter: TestKeys.creator.publicKey, groupId: "").inviterNpub
}

/// D5 (issue 31): an invite naming more relays than a Welcome may (PROTOCOL §3.2) is refused
/// when parsed, whoever signed it, so `join` never opens a connection to any of them.
final class InviteRelayCapTests: XCTestCase {
    func relays(_ n: Int) -> [String] { (0..<n).map { "wss://r\($0).attacker.example" } }

    func signed(_ n: Int) throws -> SignedInvite {
        try SignedInvite.sign(InvitePayload(conversationToken: [1, 2, 3], creatorInboxId: TestKeys.creator.publicKey.rawRepresentation,
                                            tag: "t", relays: relays(n)), with: TestKeys.creator)
    }

    func testFourHundredRelaysAreRefusedWhenParsed() throws {
        let invite = try signed(400)
        for text in [try invite.url(), invite.encodedSlug(compress: false)] {
            XCTAssertThrowsError(try AnyInvite(parsing: text)) { error in
                XCTAssertEqual((error as? InviteError)?.code, .tooManyRelays)
                XCTAssertEqual((error as? InviteError)?.message, "This invite is invalid")
            }
        }
        XCTAssertThrowsError(try SignedInvite(serializedBytes: invite.serializedBytes())) {
            XCTAssertEqual(($0 as? InviteError)?.code, .tooManyRelays)
        }
    }

    func testTheCapIsEightAndEightStillParse() throws {
        XCTAssertEqual(InvitePayload.maxRelays, 8)
        let eight = try SignedInvite(serializedBytes: try signed(InvitePayload.maxRelays).serializedBytes())
        XCTAssertEqual(eight.payload.relays.count, 8)
        XCTAssertThrowsError(try SignedInvite(serializedBytes: try signed(InvitePayload.maxRelays + 1).serializedBytes())) {
            XCTAssertEqual(($0 as? InviteError)?.code, .tooManyRelays)
        }
    }

    func testTheBuilderRefusesWhatTheReaderRefuses() {
        XCTAssertThrowsError(try SignedInvite.create(conversationID: "g", creator: TestKeys.creator, options: InviteOptions(relays: relays(9)))) {
            XCTAssertEqual(($0 as? InviteError)?.code, .invalidRelay)
            XCTAssertTrue(($0 as? InviteError)?.detail.contains("InvitePayload.maxRelays") == true)
        }
        XCTAssertNoThrow(try SignedInvite.create(conversationID: "g", creator: TestKeys.creator, options: InviteOptions(relays: relays(8))))
    }
}
