import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import InviteKitTestSupport
import XCTest

final class RelayMessageTests: XCTestCase {
    let key = Secp256k1.PrivateKey()

    func testParsesEveryRelayMessageType() throws {
        let e = TestEvents.note(key, "hi")
        XCTAssertEqual(try RelayMessage(json: "[\"EVENT\",\"s1\",\(e.jsonString)]"), .event(subscriptionId: "s1", event: e))
        XCTAssertEqual(try RelayMessage(json: "[\"OK\",\"\(e.id)\",true,\"\"]"), .ok(OKMessage(eventId: e.id, accepted: true, message: "")))
        XCTAssertEqual(try RelayMessage(json: "[\"EOSE\",\"s1\"]"), .eose(subscriptionId: "s1"))
        XCTAssertEqual(try RelayMessage(json: "[\"CLOSED\",\"s1\",\"auth-required: log in\"]"), .closed(subscriptionId: "s1", message: "auth-required: log in"))
        XCTAssertEqual(try RelayMessage(json: "[\"NOTICE\",\"slow down\"]"), .notice("slow down"))
        XCTAssertEqual(try RelayMessage(json: "[\"AUTH\",\"challenge-123\"]"), .auth(challenge: "challenge-123"))
        // nostr-relay 1.14's rejection: empty id.
        XCTAssertEqual(try RelayMessage(json: "[\"OK\",\"\",false,\"invalid: Bad signature\"]"),
                       .ok(OKMessage(eventId: "", accepted: false, message: "invalid: Bad signature")))
    }

    func testOKPrefixes() {
        func p(_ m: String) -> MachineReadablePrefix? { OKMessage(eventId: "", accepted: false, message: m).prefix }
        XCTAssertEqual(p("duplicate: have it"), .duplicate)
        XCTAssertEqual(p("blocked: you are banned"), .blocked)
        XCTAssertEqual(p("rate-limited: slow down"), .rateLimited)
        XCTAssertEqual(p("invalid: bad sig"), .invalid)
        XCTAssertEqual(p("error: db down"), .error)
        XCTAssertEqual(p("pow: difficulty 20"), .pow)
        XCTAssertEqual(p("restricted: members only"), .restricted)
        XCTAssertEqual(p("auth-required: please"), .authRequired)
        XCTAssertEqual(p("mute: no"), .mute)
        XCTAssertEqual(p("payment-required: 1 sat"), .other("payment-required"))
        XCTAssertNil(p("no prefix here"))
        XCTAssertNil(p(""))
        XCTAssertNil(p("Has Caps: x"))
        XCTAssertTrue(OKMessage(eventId: "x", accepted: false, message: "duplicate: exists").isStored)
        XCTAssertFalse(OKMessage(eventId: "x", accepted: false, message: "blocked: no").isStored)
        XCTAssertTrue(OKMessage(eventId: "x", accepted: true, message: "").isStored)
    }

    func testClientMessagesEncode() throws {
        let e = TestEvents.note(key, "a \"quoted\" / line\n")
        XCTAssertEqual(ClientMessage.event(e).jsonString, "[\"EVENT\",\(e.jsonString)]")
        XCTAssertEqual(ClientMessage.auth(e).jsonString, "[\"AUTH\",\(e.jsonString)]")
        XCTAssertEqual(ClientMessage.close(subscriptionId: "s\"1").jsonString, "[\"CLOSE\",\"s\\\"1\"]")
        let f = NostrFilter(kinds: [1059], tags: ["p": ["ab"]], limit: 10)
        XCTAssertEqual(ClientMessage.req(subscriptionId: "s", filters: [f, NostrFilter(ids: ["x"])]).jsonString,
                       "[\"REQ\",\"s\",{\"kinds\":[1059],\"#p\":[\"ab\"],\"limit\":10},{\"ids\":[\"x\"]}]")
        // The EVENT message round-trips through the strict parser.
        let v = try JSONParser.parse(ClientMessage.event(e).jsonBytes)
        XCTAssertEqual(try NostrEvent(jsonValue: v.arrayValue![1]), e)
    }

    func testNIP42AuthEvent() throws {
        let e = try NIP42.authEvent(relayURL: "wss://relay.example", challenge: "abc", signer: key, now: 1_700_000_000)
        XCTAssertEqual(e.kind, 22242)
        XCTAssertEqual(e.tags, [["relay", "wss://relay.example"], ["challenge", "abc"]])
        XCTAssertEqual(e.createdAt, 1_700_000_000)
        XCTAssertEqual(e.pubkey, key.publicKey.hex)
        XCTAssertNoThrow(try e.verify())
    }

    func testReconnectBackoffGrowsCapsAndJitters() {
        let p = ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(2), multiplier: 2, jitter: 0.5)
        XCTAssertEqual(p.delay(attempt: 1, unit: 0.5), .milliseconds(100))
        XCTAssertEqual(p.delay(attempt: 2, unit: 0.5), .milliseconds(200))
        XCTAssertEqual(p.delay(attempt: 4, unit: 0.5), .milliseconds(800))
        XCTAssertEqual(p.delay(attempt: 10, unit: 0.5), .seconds(2))
        XCTAssertEqual(p.delay(attempt: 1000, unit: 0.5), .seconds(2))
        XCTAssertEqual(p.delay(attempt: 1, unit: 0), .milliseconds(50))
        XCTAssertEqual(p.delay(attempt: 1, unit: 0.999999), .milliseconds(150))
        let draws = Set((0..<20).map { _ in p.delay(attempt: 3) })
        XCTAssertGreaterThan(draws.count, 1, "jitter must vary")
        for d in draws { XCTAssertTrue(d >= .milliseconds(200) && d <= .milliseconds(600)) }
    }

    func testRelayErrorCodesAreStableAndUnique() {
        let raw = RelayError.Code.allCases.map(\.rawValue)
        XCTAssertEqual(Set(raw).count, raw.count)
        XCTAssertTrue(raw.allSatisfy { $0.hasPrefix("relay_") })
        XCTAssertEqual(RelayError(.rejected, "x").description, "relay_rejected: x")
    }

    func testPublishOutcomeErrors() {
        let ok = OKMessage(eventId: "i", accepted: false, message: "blocked: nope")
        XCTAssertNil(PublishOutcome.accepted(ok).error)
        XCTAssertEqual(PublishOutcome.rejected(ok).error, RelayError(.rejected, "blocked: nope"))
        XCTAssertEqual(PublishOutcome.timedOut(wasSent: false).error?.code, .timedOut)
        XCTAssertEqual(PublishOutcome.failed(RelayError(.clientClosed, "c")).error?.code, .clientClosed)
    }
}
