import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitTestSupport
import XCTest

/// `marmot1…` invite codes (`nostr-invite-links.md` "Long code"; PROTOCOL §5.14.3).
final class InviteLinkCodeTests: XCTestCase {
    typealias F = InviteLinkFixture

    func assertRefused(_ text: String, _ detail: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try InviteCodeV1(bech32m: text), file: file, line: line) {
            let e = $0 as? MLSError
            XCTAssertEqual(e?.code, .invalidInviteCode, "\($0)", file: file, line: line)
            if let detail { XCTAssertTrue(e?.detail.contains(detail) == true, "\($0)", file: file, line: line) }
        }
    }

    func assertBytesRefused(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try InviteCodeV1(decoding: bytes), file: file, line: line) {
            XCTAssertEqual(($0 as? MLSError)?.code, .invalidInviteCode, "\($0)", file: file, line: line)
        }
    }

    var text: String { F.fields["code_bech32m"]! }

    func testFixtureRoundTripsAndUppercaseIsAccepted() throws {
        let code = try InviteCodeV1(bech32m: text)
        XCTAssertEqual(code.bech32m, text)
        XCTAssertEqual(try InviteCodeV1(bech32m: text.uppercased()).encoded, F.bytes("code_hex"))
        XCTAssertEqual(code.requestRelays, ["wss://relay.example"])
        XCTAssertEqual(code.bearerHash, try InviteLinkV1(decoding: F.bytes("entry_hex")).bearerHash)
    }

    func testMixedCaseRefused() {
        var chars = Array(text)
        chars[10] = Character(chars[10].uppercased())
        assertRefused(String(chars), "mixed case")
    }

    func testOtherPrefixBadChecksumAndBech32VariantRefused() {
        let bytes = F.bytes("code_hex")
        assertRefused(Bech32.encode(hrp: "marmos", data: bytes, variant: .bech32m), "prefix")
        assertRefused(Bech32.encode(hrp: "npub", data: bytes, variant: .bech32m), "prefix")
        assertRefused(Bech32.encode(hrp: "marmot", data: bytes, variant: .bech32), "bech32 checksum where bech32m")
        var chars = Array(text)
        chars[chars.count - 1] = chars[chars.count - 1] == "q" ? "p" : "q"
        assertRefused(String(chars), "checksum")
        // And the code is no NIP-19 entity: the Bech32 decoder refuses its checksum.
        XCTAssertThrowsError(try NIP19.decode(text))
    }

    func testNonzeroAndExcessPaddingRefused() throws {
        let bytes = F.bytes("code_hex")
        var values = try XCTUnwrap(Bech32.convertBits(bytes, from: 8, to: 5, pad: true))
        XCTAssertEqual(bytes.count * 8 % 5, 3, "the fixture leaves two padding bits")
        // Valid padding decodes.
        XCTAssertEqual(try InviteCodeV1(bech32m: Bech32.encode(hrp: "marmot", fiveBitValues: values, variant: .bech32m)).encoded, bytes)
        var nonzero = values
        nonzero[nonzero.count - 1] |= 1
        assertRefused(Bech32.encode(hrp: "marmot", fiveBitValues: nonzero, variant: .bech32m), "padding")
        values.append(0)
        assertRefused(Bech32.encode(hrp: "marmot", fiveBitValues: values, variant: .bech32m), "padding")
    }

    func testLengthCeiling() {
        let long = "marmot1" + String(repeating: "q", count: 6994)
        XCTAssertEqual(long.utf8.count, 7001)
        assertRefused(long, "longer than 7000")
        // At the ceiling the length is not the complaint (the checksum is).
        assertRefused(String(long.dropLast()), "checksum")
    }

    func testRelayListRules() throws {
        XCTAssertNoThrow(try InviteCodeV1(decoding: F.codeBytes(relays: ["wss://a.example", "wss://b.example"])))
        assertBytesRefused(F.codeBytes(relays: ["wss://b.example", "wss://a.example"]))
        assertBytesRefused(F.codeBytes(relays: ["wss://a.example", "wss://a.example"]))
        assertBytesRefused(F.codeBytes(relays: ["ws://a.example"]))
        assertBytesRefused(F.codeBytes(relays: ["WSS://a.example"]))
        assertBytesRefused(F.codeBytes(relays: ["https://a.example"]))
        assertBytesRefused(F.codeBytes(relays: ["wss://user@a.example"]))
        assertBytesRefused(F.codeBytes(relays: ["wss://a.example/#x"]))
        assertBytesRefused(F.codeBytes(relays: ["wss://"]))
        assertBytesRefused(F.codeBytes(relays: ["wss://a .example"]))
        assertBytesRefused(F.codeBytes(relays: []))
        assertBytesRefused(F.codeBytes(relays: [""]))
        assertBytesRefused(F.codeBytes(relays: ["wss://" + String(repeating: "a", count: 507)]))
        XCTAssertNoThrow(try InviteCodeV1(decoding: F.codeBytes(relays: ["wss://" + String(repeating: "a", count: 506)])))
        let eight = (0..<8).map { "wss://r\($0).example" }
        XCTAssertEqual(try InviteCodeV1(decoding: F.codeBytes(relays: eight)).requestRelays, eight)
        assertBytesRefused(F.codeBytes(relays: (0..<9).map { "wss://r\($0).example" }))
        XCTAssertThrowsError(try InviteCodeV1(inboxPublicKey: F.xOnly(1), linkID: [UInt8](repeating: 1, count: 32),
                                              bearer: SecureBytes(zeroedCount: 32), previewKey: SecureBytes(zeroedCount: 32),
                                              requestRelays: (0..<9).map { "wss://r\($0).example" }))
    }

    func testVersionKeysAndTrailingBytesRefused() {
        assertBytesRefused(F.codeBytes(relays: ["wss://a.example"], version: 2))
        assertBytesRefused(F.codeBytes(relays: ["wss://a.example"], version: 0))
        assertBytesRefused(F.codeBytes(relays: ["wss://a.example"], inbox: [UInt8](repeating: 0xff, count: 32)))
        assertBytesRefused(F.bytes("code_hex") + [0])
        assertBytesRefused(Array(F.bytes("code_hex").dropLast()))
        // A relay length written in two bytes where one suffices.
        var long = F.bytes("code_hex")
        let tail = Array(long.suffix(21))  // 14 13 "wss://relay.example"
        XCTAssertEqual(tail.prefix(2), [0x14, 0x13])
        long.removeLast(21)
        assertBytesRefused(long + [0x15, 0x40, 0x13] + Array(tail.dropFirst(2)))
        assertRefused(InviteCodeV1.bech32m(of: F.codeBytes(relays: ["wss://a.example"], version: 2)), "version")
    }

    func testProducedCodeRoundTrips() throws {
        let random = SystemRandom()
        let code = try InviteCodeV1(inboxPublicKey: Secp256k1.PrivateKey().publicKey.rawRepresentation, linkID: random.bytes(32),
                                    bearer: random.secureBytes(32), previewKey: random.secureBytes(32), requestRelays: ["wss://a.example/ü"])
        let text = code.bech32m
        XCTAssertTrue(text.hasPrefix("marmot1"))
        XCTAssertEqual(text, text.lowercased())
        let back = try InviteCodeV1(bech32m: text)
        XCTAssertEqual(back.encoded, code.encoded)
        XCTAssertTrue(back.bearer.constantTimeEquals(code.bearer))
    }

    func testNIP19BehaviourUnchanged() throws {
        let key = Secp256k1.PrivateKey().publicKey
        let npub = NIP19.npub(key)
        guard case .npub(let back) = try NIP19.decode(npub) else { return XCTFail() }
        XCTAssertEqual(back, key)
        XCTAssertThrowsError(try NIP19.decode(Bech32.encode(hrp: "npub", data: key.rawRepresentation, variant: .bech32m))) {
            XCTAssertEqual(($0 as? NostrError)?.code, .invalidChecksum)
        }
    }
}
