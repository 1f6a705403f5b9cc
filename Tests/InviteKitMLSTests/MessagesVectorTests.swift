import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// RFC 9420 wire structs against the mlswg messages.json: every field parses and re-serializes
/// byte-exact.
final class MessagesVectorTests: XCTestCase {
    func testEveryMessageRoundTrips() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls/messages.json") as? [[String: Any]])
        XCTAssertGreaterThan(list.count, 0)
        let r = MLSWGEngineSuites.messages(list)
        XCTAssertEqual(r.failed, 0, r.failures.prefix(5).joined(separator: "\n"))
        XCTAssertEqual(r.passed, list.count * 17)
        XCTAssertEqual(r.skipped, 0)
    }

    func testProposalTypesCoverTheVector() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls/messages.json") as? [[String: Any]])
        let first = try XCTUnwrap(list.first)
        let commit = try Commit(tlsSerialized: hex(try XCTUnwrap(first["commit"] as? String)))
        XCTAssertEqual(commit.tlsSerialized, hex(first["commit"] as! String))
        let msg = try MLSMessage(tlsSerialized: hex(try XCTUnwrap(first["mls_welcome"] as? String)))
        guard case .welcome(let w) = msg.body else { return XCTFail("not a welcome") }
        XCTAssertGreaterThan(w.secrets.count, 0)
    }

    func testSelfRemoveRoundTrips() throws {
        let p = Proposal.selfRemove
        XCTAssertEqual(p.tlsSerialized, [0x00, 0x0a])
        XCTAssertEqual(try Proposal(tlsSerialized: [0x00, 0x0a]), .selfRemove)
    }

    func testUnknownProposalTypeRejected() {
        XCTAssertThrowsError(try Proposal(tlsSerialized: [0x00, 0x63])) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidValue) }
    }
}
