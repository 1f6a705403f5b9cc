import XCTest
import InviteKitCrypto
@testable import InviteKitNostr

/// Relay lists (NIP-65 kind 10002, NIP-17 kind 10050, MIP-00 kind 10051; PROTOCOL §5.12.6).
final class RelayListTests: XCTestCase {
    let key = Secp256k1.PrivateKey()

    func event(_ kind: Int, _ tags: [[String]], at t: Int64 = 1_800_000_000) throws -> NostrEvent {
        try EventTemplate(kind: kind, content: "", tags: tags, createdAt: t).signed(by: key)
    }

    func testWriteRelaysInboxAndLegacyLists() throws {
        let outbox = try event(10002, [["r", "wss://both.example"], ["r", "wss://write.example", "write"], ["r", "wss://read.example", "read"],
                                       ["r", "https://not-a-relay.example"], ["relay", "wss://wrong-tag.example"]])
        XCTAssertEqual(RelayList.keyPackageRelays(of: outbox), ["wss://both.example", "wss://write.example"])
        XCTAssertEqual(RelayList.inboxRelays(of: outbox), [])
        let inbox = try event(10050, [["relay", "wss://inbox.example"], ["relay", "wss://inbox.example"], ["r", "wss://no.example"]])
        XCTAssertEqual(RelayList.inboxRelays(of: inbox), ["wss://inbox.example"])
        let legacy = try event(10051, [["relay", "wss://kp.example"]])
        XCTAssertEqual(RelayList.keyPackageRelays(of: legacy), ["wss://kp.example"])
        XCTAssertEqual(RelayList.keyPackageRelays(of: try event(1, [["r", "wss://x.example"]])), [])
    }

    func testListsAreBoundedAndTheNewestCounts() throws {
        let many = try event(10050, (0..<40).map { ["relay", "wss://r\($0).example"] } + [["relay", "wss://" + String(repeating: "a", count: 600)]])
        XCTAssertEqual(RelayList.inboxRelays(of: many).count, RelayList.maxRelays)
        let old = try event(10002, [["r", "wss://old.example"]], at: 100), new = try event(10002, [["r", "wss://new.example"]], at: 200)
        XCTAssertEqual(RelayList.newest([old, new], kind: 10002, author: key.publicKey.hex)?.id, new.id)
        XCTAssertNil(RelayList.newest([old, new], kind: 10002, author: Secp256k1.PrivateKey().publicKey.hex))
        XCTAssertEqual(RelayList.outbox(["wss://a.example", "wss://a.example"]).tags, [["r", "wss://a.example"]])
        XCTAssertEqual(RelayList.inbox(["wss://a.example"]).tags, [["relay", "wss://a.example"]])
    }
}
