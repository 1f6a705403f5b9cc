import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitNostr

final class EventTests: XCTestCase {
    func testCanonicalSerializationEscapesOnlyWhatNIP01Says() {
        let bytes = NostrEvent.canonicalSerialization(pubkey: "ab", createdAt: 1, kind: 1, tags: [["e", "x/y"]],
                                                      content: "a\"b\\c\nd\re\tf\u{8}g\u{c}h/é☕\u{1}")
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       #"[0,"ab",1,1,[["e","x/y"]],"a\"b\\c\nd\re\tf\bg\fh/é☕\u0001"]"#)
    }

    func testSignVerifyAndParseRoundTrip() throws {
        let key = Secp256k1.PrivateKey(using: SeededRandom(seed: 5))
        let event = try EventTemplate(kind: 1, content: "hi ☕", tags: [["t", "x"]], createdAt: 1_700_000_000).signed(by: key)
        try event.verify()
        let parsed = try NostrEvent(json: event.jsonString)
        XCTAssertEqual(parsed, event)
        try parsed.verify()
        var tampered = parsed; tampered.content = "bye"
        XCTAssertThrowsError(try tampered.verify()) { XCTAssertEqual(($0 as? NostrError)?.code, .invalidId) }
        var badSig = parsed; badSig.sig = String(repeating: "0", count: 128)
        XCTAssertThrowsError(try badSig.verify()) { XCTAssertEqual(($0 as? NostrError)?.code, .invalidSignature) }
    }

    /// NIP-01's own example is hard to come by in vector form; the NIP-59 example's wrap and seal
    /// are real signed events from the spec.
    func testSpecEventsVerify() throws {
        let v = try VectorFiles.json("external/nip59-example.json") as! [String: Any]
        for name in ["gift_wrap", "seal"] {
            let data = try JSONSerialization.data(withJSONObject: v[name]!)
            try NostrEvent(json: Array(data)).verify()
        }
    }
}
