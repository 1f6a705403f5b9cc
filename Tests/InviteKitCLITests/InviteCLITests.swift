import XCTest
import Foundation
import InviteKitTestSupport

/// Runs the real `invitekit invite …` commands (the binary is located by ``CLI/binary()``).
final class InviteCLITests: XCTestCase {
    let secret = "0000000000000000000000000000000000000000000000000000000000000003"
    let pubkey = "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9"

    func cli() throws -> URL { try CLI.binary() }

    @discardableResult
    func run(_ exe: URL, _ args: [String]) throws -> CLI.Run { try CLI.exec(exe, args, stdin: nil, env: [:]) }

    func testSignedInviteCreateDecodeVerify() throws {
        let exe = try cli()
        let created = try run(exe, ["invite", "create", "--secret-key", secret, "--group-id", "g1", "--relay", "wss://r.example",
                                    "--expires-in", "3600", "--single-use", "--name", "Club", "--domain", "join.example.org"])
        XCTAssertEqual(created.status, 0, created.err)
        let url = created.out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(url.hasPrefix("https://join.example.org/v2?i="))

        let decoded = try run(exe, ["invite", "decode", url, "--json"])
        XCTAssertEqual(decoded.status, 0)
        XCTAssertTrue(decoded.out.contains("\"signerPubkey\":\"\(pubkey)\""), decoded.out)
        XCTAssertTrue(decoded.out.contains("\"name\":\"Club\""))

        XCTAssertEqual(try run(exe, ["invite", "verify", url]).status, 0)
        XCTAssertEqual(try run(exe, ["invite", "verify", url, "--creator", pubkey]).status, 0)

        let expired = try run(exe, ["invite", "verify", url, "--now", "99999999999"])
        XCTAssertEqual(expired.status, 2)
        XCTAssertTrue(expired.err.contains("This invite has expired"), expired.err)
        XCTAssertEqual(expired.err.split(separator: "\n").count, 1)

        let json = try run(exe, ["invite", "verify", url, "--now", "99999999999", "--json"])
        XCTAssertEqual(json.status, 2)
        XCTAssertTrue(json.out.contains("\"valid\":false,\"code\":\"invite_expired\",\"message\":\"This invite has expired\",\"retryable\":false"), json.out)

        let other = try run(exe, ["invite", "verify", url, "--creator", String(repeating: "0", count: 63) + "1"])
        XCTAssertEqual(other.status, 2)

        let garbage = try run(exe, ["invite", "verify", "not-an-invite"])
        XCTAssertEqual(garbage.status, 2)
        XCTAssertTrue(garbage.err.contains("This invite is invalid"))
    }

    func testWhistleAndApproval() throws {
        let exe = try cli()
        let created = try run(exe, ["invite", "create", "--secret-key", secret, "--group-id", "g/1+x", "--relay", "wss://r.example",
                                    "--format", "whistle", "--json"])
        XCTAssertEqual(created.status, 0, created.err)
        XCTAssertTrue(created.out.contains("\"format\":\"whistle\",\"tag\":null"), created.out)
        let refused = try run(exe, ["invite", "create", "--secret-key", secret, "--group-id", "g", "--relay", "wss://r.example",
                                    "--format", "whistle", "--single-use"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.err.split(separator: "\n").count, 1)

        let approval = try run(exe, ["invite", "approval-url", "--pubkey", pubkey, "--group-id", "a/b c"])
        XCTAssertEqual(approval.out, "whistle://addmember/\(pubkey)/a%2Fb%20c\n")
        let parsed = try run(exe, ["invite", "parse-approval", approval.out.trimmingCharacters(in: .whitespacesAndNewlines), "--json"])
        XCTAssertTrue(parsed.out.contains("\"groupId\":\"a/b c\""), parsed.out)
        XCTAssertEqual(try run(exe, ["invite", "parse-approval", "whistle://addmember/zz/g"]).status, 1)
    }

    func testQRPNG() throws {
        let exe = try cli()
        let url = "whistle://invite/eyJyZWxheSI6IndzczovL3IiLCJpbnZpdGVyTnB1YiI6Im5wdWIxbHljZzVxdmp0cnAzcWpmNWY3emwzODJqOXg2bnJqejlzZGhlbnZ5eHE4YzM4MDhxeG11czZncTI2NiIsImdyb3VwSWQiOiJnIn0="
        let tmp = TemporaryDirectory(prefix: "ik-cli")
        defer { withExtendedLifetime(tmp) {} }
        let file = tmp.fileURL("invite.png")
        XCTAssertEqual(try run(exe, ["invite", "qr", url, "--png", file.path]).status, 0)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") else { throw XCTSkip("no zbarimg") }
        let z = try run(URL(fileURLWithPath: "/usr/bin/zbarimg"), ["--raw", "-q", file.path])
        XCTAssertEqual(z.out.trimmingCharacters(in: .newlines), url)
        let term = try run(exe, ["invite", "qr", url])
        XCTAssertTrue(term.out.contains("▀") || term.out.contains("▄"))
    }
}
