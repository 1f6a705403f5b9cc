import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitNostr

/// Every group of the official NIP-44 vector file (vectors/external/nip44.vectors.json).
final class NIP44VectorTests: XCTestCase {
    var v2: [String: Any] = [:]
    var valid: [String: Any] { v2["valid"] as! [String: Any] }
    var invalid: [String: Any] { v2["invalid"] as! [String: Any] }

    override func setUpWithError() throws {
        v2 = (try VectorFiles.json("external/nip44.vectors.json") as! [String: Any])["v2"] as! [String: Any]
    }

    func testGetConversationKey() throws {
        let cases = valid["get_conversation_key"] as! [[String: String]]
        XCTAssertEqual(cases.count, 35)
        for c in cases {
            let sk = try Secp256k1.PrivateKey(rawRepresentation: hex(c["sec1"]!))
            let pk = try Secp256k1.XOnlyPublicKey(rawRepresentation: hex(c["pub2"]!))
            let ck = try NIP44.ConversationKey(privateKey: sk, publicKey: pk)
            XCTAssertEqual(Hex.encode(ck.rawRepresentation.exportBytes()), c["conversation_key"])
        }
    }

    func testInvalidGetConversationKey() throws {
        let cases = invalid["get_conversation_key"] as! [[String: String]]
        XCTAssertEqual(cases.count, 8)
        for c in cases {
            let result = Result { () throws -> NIP44.ConversationKey in
                let sk = try Secp256k1.PrivateKey(rawRepresentation: hex(c["sec1"]!))
                let pk = try Secp256k1.XOnlyPublicKey(rawRepresentation: hex(c["pub2"]!))
                return try NIP44.ConversationKey(privateKey: sk, publicKey: pk)
            }
            XCTAssertThrowsError(try result.get(), c["note"] ?? "")
        }
    }

    func testGetMessageKeys() throws {
        let group = valid["get_message_keys"] as! [String: Any]
        let ck = try NIP44.ConversationKey(rawRepresentation: hex(group["conversation_key"] as! String))
        let cases = group["keys"] as! [[String: String]]
        XCTAssertGreaterThan(cases.count, 0)
        for c in cases {
            let keys = ck.messageKeys(nonce: hex(c["nonce"]!))
            XCTAssertEqual(Hex.encode(keys.chachaKey.exportBytes()), c["chacha_key"])
            XCTAssertEqual(Hex.encode(keys.chachaNonce), c["chacha_nonce"])
            XCTAssertEqual(Hex.encode(keys.hmacKey.exportBytes()), c["hmac_key"])
        }
    }

    func testCalcPaddedLen() {
        let cases = valid["calc_padded_len"] as! [[Int]]
        XCTAssertEqual(cases.count, 24)
        for c in cases { XCTAssertEqual(NIP44.paddedLength(c[0]), c[1], "len \(c[0])") }
    }

    func testEncryptDecrypt() throws {
        let cases = valid["encrypt_decrypt"] as! [[String: String]]
        XCTAssertEqual(cases.count, 10)
        for c in cases {
            let sk1 = try Secp256k1.PrivateKey(rawRepresentation: hex(c["sec1"]!))
            let sk2 = try Secp256k1.PrivateKey(rawRepresentation: hex(c["sec2"]!))
            let ck = try NIP44.ConversationKey(privateKey: sk1, publicKey: sk2.publicKey)
            XCTAssertEqual(Hex.encode(ck.rawRepresentation.exportBytes()), c["conversation_key"])
            let payload = try NIP44.encrypt(Array(c["plaintext"]!.utf8), conversationKey: ck, nonce: hex(c["nonce"]!))
            XCTAssertEqual(payload, c["payload"])
            let reverse = try NIP44.ConversationKey(privateKey: sk2, publicKey: sk1.publicKey)
            XCTAssertEqual(try NIP44.decrypt(payload, conversationKey: reverse), Array(c["plaintext"]!.utf8))
        }
    }

    func testEncryptDecryptLongMessages() throws {
        let cases = valid["encrypt_decrypt_long_msg"] as! [[String: Any]]
        XCTAssertEqual(cases.count, 3)
        for c in cases {
            let ck = try NIP44.ConversationKey(rawRepresentation: hex(c["conversation_key"] as! String))
            let pattern = Array((c["pattern"] as! String).utf8)
            let plaintext = Array([[UInt8]](repeating: pattern, count: c["repeat"] as! Int).joined())
            XCTAssertEqual(Hex.encode(SHA256.hash(plaintext)), c["plaintext_sha256"] as? String)
            let payload = try NIP44.encrypt(plaintext, conversationKey: ck, nonce: hex(c["nonce"] as! String))
            XCTAssertEqual(Hex.encode(SHA256.hash(Array(payload.utf8))), c["payload_sha256"] as? String)
            XCTAssertEqual(try NIP44.decrypt(payload, conversationKey: ck), plaintext)
        }
    }

    func testInvalidDecrypt() throws {
        let cases = invalid["decrypt"] as! [[String: String]]
        XCTAssertEqual(cases.count, 12)
        for c in cases {
            let ck = try NIP44.ConversationKey(rawRepresentation: hex(c["conversation_key"]!))
            XCTAssertThrowsError(try NIP44.decrypt(c["payload"]!, conversationKey: ck), c["note"]!) {
                XCTAssertTrue($0 is NostrError, "\(c["note"]!): \($0)")
            }
        }
    }

    /// The vector file predates nips PR #1907: of its invalid lengths only 0 is still invalid.
    func testEncryptMessageLengthsUnderTheAmendedSpec() throws {
        let lengths = invalid["encrypt_msg_lengths"] as! [Int]
        XCTAssertEqual(lengths, [0, 65536, 100000, 10000000])
        let ck = try NIP44.ConversationKey(rawRepresentation: [UInt8](repeating: 7, count: 32))
        for n in lengths {
            let plaintext = [UInt8](repeating: 0x61, count: n)
            if n == 0 {
                XCTAssertThrowsError(try NIP44.encrypt(plaintext, conversationKey: ck)) {
                    XCTAssertEqual(($0 as? NostrError)?.code, .invalidPlaintextLength)
                }
                continue
            }
            let payload = try NIP44.encrypt(plaintext, conversationKey: ck, nonce: [UInt8](repeating: 1, count: 32))
            let decoded = Base64.decode(payload)!
            // Extended prefix: 00 00 | u32 BE length, then the padded plaintext.
            XCTAssertEqual(decoded.count, 1 + 32 + 6 + NIP44.paddedLength(n) + 32)
            XCTAssertEqual(try NIP44.decrypt(payload, conversationKey: ck), plaintext, "length \(n)")
        }
    }

    func testBoundaryLengthsRoundTrip() throws {
        let ck = try NIP44.ConversationKey(rawRepresentation: [UInt8](repeating: 9, count: 32))
        for n in [1, 31, 32, 33, 65535, 65536, 65537] {
            let plaintext = SeededRandom(seed: UInt64(n)).bytes(n)
            let payload = try NIP44.encrypt(plaintext, conversationKey: ck)
            XCTAssertEqual(try NIP44.decrypt(payload, conversationKey: ck), plaintext, "length \(n)")
        }
    }
}
