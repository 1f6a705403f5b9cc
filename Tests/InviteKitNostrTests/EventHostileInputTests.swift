import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitNostr

/// Hostile input for every Nostr-layer decoder: each must end in a typed error, never a crash.
final class EventHostileInputTests: XCTestCase {
    let key = Secp256k1.PrivateKey(using: SeededRandom(seed: 77))

    func sample() throws -> NostrEvent {
        try EventTemplate(kind: 1, content: "sample", tags: [["p", key.publicKey.hex]], createdAt: 1_700_000_000).signed(by: key)
    }

    func testMalformedEventsGetTypedErrors() throws {
        let good = try sample()
        func mutate(_ f: (inout [String: Any]) -> Void) throws -> String {
            var obj = try JSONSerialization.jsonObject(with: Data(good.jsonBytes)) as! [String: Any]
            f(&obj)
            return String(decoding: try JSONSerialization.data(withJSONObject: obj), as: UTF8.self)
        }
        let cases: [(String, NostrError.Code)] = [
            (try mutate { $0["id"] = "abc" }, .invalidField),
            (try mutate { $0["pubkey"] = String(repeating: "g", count: 64) }, .invalidField),
            (try mutate { $0["sig"] = String(repeating: "a", count: 126) }, .invalidField),
            (try mutate { $0["kind"] = 65536 }, .invalidField),
            (try mutate { $0["kind"] = -1 }, .invalidField),
            (try mutate { $0["kind"] = 1.5 }, .invalidField),
            (try mutate { $0["created_at"] = "now" }, .invalidField),
            (try mutate { $0["tags"] = [["p", 5]] }, .invalidField),
            (try mutate { $0["tags"] = ["p"] }, .invalidField),
            (try mutate { $0["content"] = 7 }, .invalidField),
            (try mutate { $0.removeValue(forKey: "sig") }, .missingField),
            (try mutate { $0.removeValue(forKey: "kind") }, .missingField),
            ("[1,2,3]", .malformedJSON),
            ("{\"id\":", .malformedJSON),
            (#"{"id":"a","id":"b"}"#, .malformedJSON),
        ]
        for (json, code) in cases {
            XCTAssertThrowsError(try NostrEvent(json: json), json) { XCTAssertEqual(($0 as? NostrError)?.code, code, json) }
        }
    }

    func testOversizedInputIsRefusedBeforeParsing() {
        let huge = [UInt8](repeating: 0x20, count: NostrEvent.defaultMaxJSONBytes + 1)
        XCTAssertThrowsError(try NostrEvent(json: huge)) { XCTAssertEqual(($0 as? NostrError)?.code, .tooLarge) }
    }

    func testDeepNestingIsRefused() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { XCTAssertEqual(($0 as? JSONError)?.code, .jsonTooDeep) }
        XCTAssertThrowsError(try NostrEvent(json: deep))
    }

    func testNonUTF8IsRefused() throws {
        var bytes = try sample().jsonBytes
        let at = bytes.firstIndex(of: UInt8(ascii: "s"))!  // inside "sample"
        bytes[at] = 0xFF
        XCTAssertThrowsError(try NostrEvent(json: bytes)) { XCTAssertEqual(($0 as? NostrError)?.code, .malformedJSON) }
        XCTAssertThrowsError(try JSONParser.parse(#""\ud800""#)) { XCTAssertEqual(($0 as? JSONError)?.code, .jsonInvalidUTF8) }
    }

    func testTruncationAtEveryByteNeverParses() throws {
        let bytes = try sample().jsonBytes
        for n in 0..<bytes.count {
            XCTAssertThrowsError(try NostrEvent(json: Array(bytes[..<n])), "prefix \(n)")
        }
    }

    func testEveryBitFlipIsCaughtByParsingOrVerification() throws {
        let bytes = try sample().jsonBytes
        for i in stride(from: 0, to: bytes.count, by: 1) {
            for bit in 0..<8 {
                var b = bytes; b[i] ^= UInt8(1 << bit)
                if let e = try? NostrEvent(json: b) {
                    // The flip survived parsing (e.g. inside a string): it must not verify, unless
                    // it only touched JSON syntax that carries no meaning.
                    if (try? e.verify()) != nil { XCTAssertEqual(e, try sample(), "byte \(i) bit \(bit)") }
                }
            }
        }
    }

    func testBech32HostileInput() {
        let good = NIP19.npub(key.publicKey)
        for n in 0..<good.count { XCTAssertThrowsError(try NIP19.decode(String(good.prefix(n)))) }
        var chars = Array(good.utf8); chars[10] = chars[10] == UInt8(ascii: "q") ? UInt8(ascii: "p") : UInt8(ascii: "q")
        XCTAssertThrowsError(try NIP19.decode(String(decoding: chars, as: UTF8.self))) {
            XCTAssertEqual(($0 as? NostrError)?.code, .invalidChecksum)
        }
        XCTAssertThrowsError(try NIP19.decode(String(good.uppercased().prefix(10)) + String(good.dropFirst(10)))) // mixed case
        XCTAssertThrowsError(try NIP19.decode("npub1" + String(repeating: "q", count: 6000)))
        XCTAssertThrowsError(try NIP19.decode(Bech32.encode(hrp: "npub", data: [1, 2, 3])))
        XCTAssertThrowsError(try NIP19.decode(Bech32.encode(hrp: "nfoo", data: [UInt8](repeating: 1, count: 32)))) {
            XCTAssertEqual(($0 as? NostrError)?.code, .unexpectedPrefix)
        }
        XCTAssertThrowsError(try NIP19.decode(Bech32.encode(hrp: "nprofile", data: [0, 40, 1]))) {
            XCTAssertEqual(($0 as? NostrError)?.code, .invalidTLV)
        }
    }

    func testNIP44HostilePayloads() throws {
        let ck = try NIP44.ConversationKey(rawRepresentation: [UInt8](repeating: 3, count: 32))
        let payload = try NIP44.encrypt(Array("attack at dawn".utf8), conversationKey: ck)
        var decoded = Base64.decode(payload)!
        // Every single-bit flip of the decoded payload is rejected.
        for i in 0..<decoded.count {
            for bit in [0, 7] {
                decoded[i] ^= UInt8(1 << bit)
                XCTAssertThrowsError(try NIP44.decrypt(Base64.encode(decoded), conversationKey: ck), "byte \(i)")
                decoded[i] ^= UInt8(1 << bit)
            }
        }
        for n in stride(from: 0, to: payload.count, by: 7) {
            XCTAssertThrowsError(try NIP44.decrypt(String(payload.prefix(n)), conversationKey: ck))
        }
        XCTAssertThrowsError(try NIP44.decrypt("#" + payload, conversationKey: ck)) { XCTAssertEqual(($0 as? NostrError)?.code, .unsupportedVersion) }
        XCTAssertThrowsError(try NIP44.decrypt(String(repeating: "A", count: 200_000_000 / 8), conversationKey: ck))
    }

    func testKeyParsingRejectsJunk() {
        for junk in ["", "xyz", String(repeating: "0", count: 64), String(repeating: "f", count: 64), "nsec1abc", "npub1" + String(repeating: "q", count: 58)] {
            XCTAssertThrowsError(try NostrKeys.parseSecretKey(junk), junk)
        }
        XCTAssertThrowsError(try NostrKeys.parsePublicKey(String(repeating: "z", count: 64)))
    }
}
