import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import InviteKitTestSupport
import XCTest

final class RelayMessageHostileInputTests: XCTestCase {
    func code(_ s: String) -> RelayError.Code? {
        do { _ = try RelayMessage(json: s); return nil } catch { return error.code }
    }

    func testMalformedRelayMessagesAreTyped() {
        let malformed = [
            "", "{}", "null", "[]", "[1,2]", "\"EVENT\"", "[\"EOSE\"]", "[\"EOSE\",1]", "[\"EOSE\",\"a\",\"b\"]",
            "[\"OK\",\"id\",\"true\",\"\"]", "[\"OK\",\"id\"]", "[\"OK\",1,true,\"\"]", "[\"OK\",\"id\",true,5]",
            "[\"NOTICE\"]", "[\"NOTICE\",{}]", "[\"AUTH\"]", "[\"AUTH\",1]", "[\"CLOSED\"]", "[\"EVENT\",\"s\"]",
            "[\"EVENT\",1,{}]", "[\"EOSE\",\"a\"] trailing", "[\"EOSE\",\"a\",]",
            String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
            "[\"NOTICE\",\"\\ud800\"]",
        ]
        for s in malformed { XCTAssertEqual(code(s), .malformedMessage, s) }
        XCTAssertEqual(code("[\"COUNT\",\"s\",{\"count\":1}]"), .unknownMessageType)
        XCTAssertEqual(code("[\"event\",\"s\",{}]"), .unknownMessageType)
    }

    func testEventMessagesWithBadEventsAreTyped() {
        let key = Secp256k1.PrivateKey()
        let e = TestEvents.note(key, "x")
        var noSig = e.jsonString
        noSig = noSig.replacingOccurrences(of: ",\"sig\":\"\(e.sig!)\"", with: "")
        for bad in ["{}", "[]", "\"x\"", noSig, e.jsonString.replacingOccurrences(of: "\"kind\":1", with: "\"kind\":-1"),
                    e.jsonString.replacingOccurrences(of: e.id, with: e.id.uppercased())] {
            XCTAssertEqual(code("[\"EVENT\",\"s\",\(bad)]"), .invalidEvent, bad)
        }
        // Duplicate keys would let two readers see two different events.
        let dup = e.jsonString.replacingOccurrences(of: "\"content\":\"x\"", with: "\"content\":\"x\",\"content\":\"y\"")
        XCTAssertNotNil(code("[\"EVENT\",\"s\",\(dup)]"))
    }

    func testOversizedMessageIsRefused() {
        let big = "[\"NOTICE\",\"" + String(repeating: "a", count: RelayMessage.maxMessageBytes) + "\"]"
        XCTAssertEqual(code(big), .malformedMessage)
    }

    func testHostileFiltersAreRefused() {
        for s in ["[]", "{\"kinds\":[\"1\"]}", "{\"kinds\":[70000]}", "{\"ids\":[\"ABC\"]}", "{\"authors\":[1]}",
                  "{\"since\":-1}", "{\"limit\":1.5}", "{\"#pp\":[\"x\"]}", "{\"#1\":[\"x\"]}", "{\"search\":\"x\"}",
                  "{\"#p\":\"x\"}", "{\"#p\":[1]}", "nope"] {
            XCTAssertThrowsError(try NostrFilter(json: s), s) { XCTAssertEqual(($0 as? RelayError)?.code, .invalidFilter) }
        }
    }
}
