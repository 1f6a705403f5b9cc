import XCTest
import InviteKitCrypto
@testable import InviteKitInvites

final class WhistleInviteCodeTests: XCTestCase {
    let npub = InviteCode(relay: "", inviter: TestKeys.creator.publicKey, groupId: "").inviterNpub

    func b64(_ json: String, alphabet: Base64.Alphabet = .standard, padded: Bool = true) -> String {
        Base64.encode(Array(json.utf8), alphabet: alphabet, padded: padded)
    }

    func testCanonicalEncoding() {
        let c = InviteCode(relay: "wss://relay.example/path", inviterNpub: npub, groupId: "g\"1")
        XCTAssertEqual(c.canonicalJSON, "{\"relay\":\"wss://relay.example/path\",\"inviterNpub\":\"\(npub)\",\"groupId\":\"g\\\"1\"}")
        XCTAssertTrue(c.code.hasSuffix("=") || c.code.utf8.count % 4 == 0)
        XCTAssertEqual(try InviteCode(code: c.code), c)
        // Foundation's JSONDecoder (what Whistle uses) reads it.
        struct W: Decodable { let relay, inviterNpub, groupId: String }
        let json = Data(Base64.decode(c.code)!)
        let w = try? JSONDecoder().decode(W.self, from: json)
        XCTAssertEqual(w?.relay, c.relay)
        XCTAssertEqual(w?.groupId, c.groupId)
    }

    func testTolerantDecoding() throws {
        let expected = InviteCode(relay: "wss://r.example/x", inviterNpub: npub, groupId: "abc")
        let variants = [
            "{\"groupId\":\"abc\",\"relay\":\"wss:\\/\\/r.example\\/x\",\"inviterNpub\":\"\(npub)\"}",
            "{ \"relay\" : \"wss://r.example/x\", \"inviterNpub\":\"\(npub)\", \"groupId\":\"abc\", \"extra\": {\"n\": [1, 2, {\"d\": true}]}, \"v\": 2 }",
        ]
        for json in variants {
            for (alphabet, padded) in [(Base64.Alphabet.standard, true), (.standard, false), (.urlSafe, true), (.urlSafe, false)] {
                let code = b64(json, alphabet: alphabet, padded: padded)
                XCTAssertEqual(try InviteCode(code: code), expected, code)
                XCTAssertEqual(try InviteCode(code: "  \n\(code)\t "), expected)
            }
        }
    }

    func testTypedRejections() {
        func code(_ s: String) -> InviteError.Code? {
            do { _ = try InviteCode(code: s); return nil } catch { return error.code }
        }
        XCTAssertEqual(code(b64("{\"relay\":\"r\",\"inviterNpub\":\"\(npub)\"}")), .missingKey)
        XCTAssertEqual(code(b64("{\"relay\":1,\"inviterNpub\":\"\(npub)\",\"groupId\":\"g\"}")), .nonStringValue)
        XCTAssertEqual(code(b64("{\"relay\":null,\"inviterNpub\":\"\(npub)\",\"groupId\":\"g\"}")), .nonStringValue)
        XCTAssertEqual(code(b64("{\"relay\":\"r\",\"inviterNpub\":\"npub1xyz\",\"groupId\":\"g\"}")), .invalidNpub)
        XCTAssertEqual(code(b64("{\"relay\":\"r\",\"inviterNpub\":\"\(TestKeys.creator.publicKey.hex)\",\"groupId\":\"g\"}")), .invalidNpub)
        XCTAssertEqual(code(b64("[1,2]")), .invalidJSON)
        XCTAssertEqual(code(b64("{\"relay\":")), .invalidJSON)
        XCTAssertEqual(code("!!!not base64"), .invalidEncoding)
        XCTAssertEqual(code(b64("{\"relay\":\"r\",\"relay\":\"s\",\"inviterNpub\":\"\(npub)\",\"groupId\":\"g\"}")), .duplicateKey)
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        XCTAssertEqual(code(b64("{\"relay\":\"r\",\"inviterNpub\":\"\(npub)\",\"groupId\":\"g\",\"x\":\(deep)}")), .jsonTooDeep)
        let okDeep = String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
        XCTAssertNil(code(b64("{\"relay\":\"r\",\"inviterNpub\":\"\(npub)\",\"groupId\":\"g\",\"x\":\(okDeep)}")))
        XCTAssertEqual(code(String(repeating: "A", count: InviteCode.maxInputLength + 4)), .inputTooLarge)
    }

    func testURLRoundTripWithSlashAndPlus() throws {
        // Find a group id whose code contains both '/' and '+'.
        var found: InviteCode?
        for i in 0..<5000 {
            let c = InviteCode(relay: "wss://relay.example", inviterNpub: npub, groupId: "group-\(i)-???>>>")
            if c.code.contains("/") && c.code.contains("+") { found = c; break }
        }
        let c = try XCTUnwrap(found)
        XCTAssertFalse(c.url.dropFirst(InviteCode.urlPrefix.count).contains("/"))
        XCTAssertEqual(try InviteCode(url: c.url), c)
        // Raw (unescaped) and '+'-as-space forms from other encoders still parse.
        XCTAssertEqual(try InviteCode(url: InviteCode.urlPrefix + c.code), c)
        XCTAssertEqual(try InviteCode(url: InviteCode.urlPrefix + c.code.replacingOccurrences(of: "+", with: " ")), c)
        XCTAssertEqual(try InviteCode(url: c.code), c)
        XCTAssertEqual(try InviteCode(url: "WHISTLE://invite/" + c.code + "?src=qr"), c)
        XCTAssertThrowsError(try InviteCode(url: "whistle://other/" + c.code)) { XCTAssertEqual(($0 as? InviteError)?.code, .unrecognizedURL) }
    }

    func testApprovalURL() throws {
        let a = ApprovalURL(pubkey: TestKeys.other.publicKey, groupId: "team/alpha beta?#%")
        XCTAssertEqual(a.url, "whistle://addmember/\(TestKeys.other.publicKey.hex)/team%2Falpha%20beta%3F%23%25")
        XCTAssertEqual(try ApprovalURL(url: a.url), a)
        func code(_ s: String) -> InviteError.Code? {
            do { _ = try ApprovalURL(url: s); return nil } catch { return error.code }
        }
        XCTAssertEqual(code("whistle://addmember/zz/g"), .invalidPublicKey)
        XCTAssertEqual(code("whistle://addmember/\(String(repeating: "f", count: 64))/g"), .invalidPublicKey)
        XCTAssertEqual(code("whistle://addmember/\(TestKeys.other.publicKey.hex)/"), .invalidApprovalURL)
        XCTAssertEqual(code("whistle://addmember/\(TestKeys.other.publicKey.hex)"), .invalidApprovalURL)
        XCTAssertEqual(code("whistle://addmember/\(TestKeys.other.publicKey.hex)/%zz"), .invalidApprovalURL)
        XCTAssertEqual(code("whistle://addmember/\(TestKeys.other.publicKey.hex)/%FF"), .invalidApprovalURL)
        XCTAssertEqual(code("https://addmember/x/y"), .invalidApprovalURL)
        XCTAssertEqual(try ApprovalURL(url: "whistle://addmember/\(TestKeys.other.publicKey.hex.uppercased())/g").pubkey, TestKeys.other.publicKey)
    }
}
