import XCTest
import Foundation
import InviteKitTestSupport

/// `invitekit invite link …` (docs/cli.md §5): readable refusals with non-zero exits, consent
/// required before anything is sent, and the QR of a code.
final class InviteLinkCLITests: XCTestCase {
    /// The spec fixture's complete code (`vectors/marmot/invite-links/invite-links-v1.json`).
    private func fixtureCode() throws -> String {
        let json = try XCTUnwrap(try VectorFiles.json("marmot/invite-links/invite-links-v1.json") as? [String: Any])
        return try XCTUnwrap(json["code_bech32m"] as? String)
    }

    private func run(_ args: [String], stdin: [UInt8]? = nil, env: [String: String] = [:]) throws -> CLI.Run {
        try CLI.exec(try CLI.binary(), args, stdin: stdin, env: env)
    }

    func testMalformedAndOversizedCodesAreRefusedInWords() throws {
        let oversized = "marmot1" + String(repeating: "q", count: 7000)
        for command in ["preview", "qr"] {
            for bad in ["marmot1qqqq", "naddr1qqqq", oversized] {
                let r = try run(["invite", "link", command, bad])
                XCTAssertEqual(r.status, 65, "\(command) \(bad.prefix(12)): \(r.err)")
                XCTAssertTrue(r.err.contains("not a valid marmot1… invite link code"), r.err)
                XCTAssertTrue(r.err.contains("invalid_invite_code"), r.err)
            }
        }
    }

    func testTheQRDrawsTheUppercaseCodeAndAPNGIsWritten() throws {
        let code = try fixtureCode()
        let printed = try run(["invite", "link", "qr", code])
        XCTAssertEqual(printed.status, 0, printed.err)
        XCTAssertTrue(printed.out.contains("█") || printed.out.contains("▀") || printed.out.contains("▄"), "half blocks printed")
        let dir = TemporaryDirectory(prefix: "invitekit-link-qr")
        let png = dir.file("code.png")
        let written = try run(["invite", "link", "qr", code.uppercased(), "--png", png])
        XCTAssertEqual(written.status, 0, written.err)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4e, 0x47])
    }

    func testJoinWithoutAHomeOrConsentSendsNothing() throws {
        let code = try fixtureCode()
        let dir = TemporaryDirectory(prefix: "invitekit-link-join")
        // No home: refused before any relay is asked.
        let noHome = try run(["invite", "link", "join", code, "--home", dir.file("missing")])
        XCTAssertNotEqual(noHome.status, 0)
        XCTAssertTrue(noHome.err.contains("invitekit:"), noHome.err)
        // An empty status list reads without a node.
        let home = dir.file("home")
        XCTAssertEqual(try run(["init", "--home", home, "--relay", "wss://relay.invitekit.invalid"]).status, 0)
        let status = try run(["invite", "link", "status", "--home", home, "--json"])
        XCTAssertEqual(status.status, 0, status.err)
        XCTAssertEqual(status.out, "")
    }
}
