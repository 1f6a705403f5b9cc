import XCTest
@testable import InviteKit

/// The inbox's on-disk format (docs/node.md §9): every request survives its JSON object, an
/// unknown one is refused, and an `error: …` answer comes back as the error the server threw.
final class NodeHomeInboxFormatTests: XCTestCase {
    func testEveryRequestSurvivesItsInboxFields() {
        let requests: [NodeHomeRequest] = [
            .send(group: "g", text: "hi, there"), .revoke(group: "g"),
            .invite(group: "g", singleUse: true, expiresIn: 60, format: .signed),
            .invite(group: "g", singleUse: false, expiresIn: nil, format: .whistle),
            .approve(group: "g", member: "npub1a"), .decline(group: "g", member: "npub1b"),
            .add(group: "g", members: ["npub1a", "npub1b"]), .remove(group: "g", member: "npub1c"),
            .update(group: "g"), .leave(group: "g"), .join(url: "https://x.example/i"), .join(url: nil),
            .react(group: "g", message: "ab12", emoji: "👍"), .reply(group: "g", message: "ab12", text: "yes, and"),
            .edit(group: "g", message: "ab12", text: "fixed"), .delete(group: "g", message: "ab12"), .retention(group: "g", seconds: 86_400),
            .createLink(group: "g", automatic: true, expiresIn: 3600, name: "Club", description: "line\nbreak", relays: ["wss://a.example", "wss://b.example"]),
            .createLink(group: "g", automatic: false, expiresIn: nil, name: nil, description: "", relays: []),
            .revokeLink(group: "g", link: "ab12"), .decideLinkRequest(group: "g", request: "cd34", approve: true),
            .decideLinkRequest(group: "g", request: "cd34", approve: false),
        ]
        for r in requests { XCTAssertEqual(NodeHomeRequest(fields: r.fields), r) }
        // The CLI's earlier files: `add` joins several members with commas.
        XCTAssertEqual(NodeHomeRequest(fields: ["op": "add", "group": "g", "member": "a,b"]), .add(group: "g", members: ["a", "b"]))
        XCTAssertNil(NodeHomeRequest(fields: ["op": "explode", "group": "g"]))
        XCTAssertNil(NodeHomeRequest(fields: ["op": "send", "group": "g"]))
        XCTAssertNil(NodeHomeRequest(fields: ["op": "react", "group": "g", "text": "+"]), "no message")
        XCTAssertNil(NodeHomeRequest(fields: ["op": "retention", "group": "g", "seconds": "-1"]))
    }

    func testAnErrorAnswerComesBackAsTheServersError() {
        let thrown = InviteKitError(.notPermitted, underlyingCode: "not_admin", context: "group a: b")
        do {
            _ = try NodeHomeAnswer.decode(NodeHomeAnswer.encode(.failure(thrown)))
            XCTFail("an error answer decoded as an answer")
        } catch {
            XCTAssertEqual(error.code, .notPermitted)
            XCTAssertEqual(error.underlyingCode, "not_admin")
            XCTAssertEqual(error.context, "group a: b")
        }
        XCTAssertEqual(try NodeHomeAnswer.decode(NodeHomeAnswer.encode(.success("abc"))), "abc")
        // An older serve's free text is kept as the context.
        XCTAssertEqual(NodeHomeAnswer.error("no group x").context, "no group x")
        XCTAssertEqual(NodeHomeAnswer.error("no group x").code, .unknown)
    }

    func testAMarkerOfADeadProcessIsNotAServer() throws {
        let dir = NSTemporaryDirectory() + "invitekit-marker-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let home = NodeHome(StoreHome(directory: dir))
        XCTAssertFalse(home.isServed)
        try NodeHomeFiles.preparePrivateDirectory(dir)
        try NodeHomeFiles.preparePrivateDirectory(home.inbox)
        try NodeHomeFiles.write(Array("\(getpid())\n".utf8), to: home.serveMarker)
        XCTAssertTrue(home.isServed)
        try NodeHomeFiles.write(Array("999999999\n".utf8), to: home.serveMarker)
        XCTAssertFalse(home.isServed)
    }
}
