import Foundation
import XCTest
import InviteKitTestSupport

/// `invitekit mls` refuses bad stdin and bad state files without touching the state file, keeps
/// it private, and never releases a Welcome without an acknowledged commit.
final class MLSCLIHostileInputTests: XCTestCase {
    private var tmp: TemporaryDirectory!
    private var dir: URL { tmp.url }
    private var state: String { dir.appendingPathComponent("g.group").path }

    override func setUpWithError() throws {
        tmp = TemporaryDirectory(prefix: "ik-cli")
        let r = try CLI.run(["mls", "create", "--state", state, "--name", "n", "--relay", MLSCLITests.relay],
                            env: ["INVITEKIT_SECRET_KEY": MLSCLITests.aliceKey])
        XCTAssertEqual(r.status, 0, r.err)
    }

    override func tearDownWithError() throws { tmp = nil }

    private func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: state)) }

    private func mode() throws -> Int {
        try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: state)[.posixPermissions] as? Int)
    }

    func testStateFileIsPrivate() throws {
        XCTAssertEqual(try mode(), 0o600)
        let kp = try CLI.run(["keypackage", "create", "--relay", MLSCLITests.relay], env: ["INVITEKIT_SECRET_KEY": MLSCLITests.bobKey])
        XCTAssertEqual(try CLI.run(["mls", "add", "--state", state], stdin: kp.outBytes).status, 0)
        XCTAssertEqual(try mode(), 0o600, "the replaced file keeps mode 0600")
        XCTAssertFalse(try bytes().range(of: Data(MLSCLITests.aliceKey.utf8)) != nil, "the state never holds the identity key as text")
    }

    func testHostileStdinLeavesTheFileByteIdentical() throws {
        let before = try bytes()
        let inputs: [[UInt8]] = [
            Array("not json\n".utf8),
            Array("{\"kind\":445}\n".utf8),
            Array("[1,2,3]\n".utf8),
            [0xff, 0xfe, 0x00, 0x0a],
            Array(String(repeating: "[", count: 10_000).utf8),
        ]
        for input in inputs {
            for args in [["mls", "add", "--state", state], ["mls", "process", "--state", state]] {
                let r = try CLI.run(args, stdin: input, env: ["INVITEKIT_SECRET_KEY": MLSCLITests.aliceKey])
                XCTAssertNotEqual(r.status, 0, "\(args) accepted \(input.prefix(20))")
                XCTAssertFalse(r.err.isEmpty)
                XCTAssertEqual(r.out, "")
                XCTAssertEqual(try bytes(), before, "\(args) changed the state on bad input")
            }
        }
        // A well-formed event that is not a KeyPackage: refused as a whole, nothing recorded.
        let note = try CLI.run(["event", "sign"], stdin: Array("{\"kind\":1,\"content\":\"x\",\"tags\":[]}".utf8),
                               env: ["INVITEKIT_SECRET_KEY": MLSCLITests.bobKey])
        if note.status == 0 {
            let r = try CLI.run(["mls", "add", "--state", state], stdin: note.outBytes)
            XCTAssertNotEqual(r.status, 0)
            XCTAssertTrue(r.err.contains("["), "a typed error names its code: \(r.err)")
            XCTAssertEqual(try bytes(), before)
        }
    }

    func testConfirmWithoutAckedByIsRefused() throws {
        let kp = try CLI.run(["keypackage", "create", "--relay", MLSCLITests.relay], env: ["INVITEKIT_SECRET_KEY": MLSCLITests.bobKey])
        XCTAssertEqual(try CLI.run(["mls", "add", "--state", state], stdin: kp.outBytes).status, 0)
        let pending = try bytes()
        let r = try CLI.run(["mls", "confirm", "--state", state], env: ["INVITEKIT_SECRET_KEY": MLSCLITests.aliceKey])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("--acked-by"), r.err)
        XCTAssertFalse(r.out.contains("1059"), "no Welcome leaves without an acknowledged commit")
        XCTAssertEqual(try bytes(), pending)
        // A second commit on top of the pending one is refused too.
        let second = try CLI.run(["mls", "update", "--state", state])
        XCTAssertNotEqual(second.status, 0)
        XCTAssertEqual(try bytes(), pending)
    }

    func testCorruptOrExposedStateIsRefused() throws {
        var data = try bytes()
        data[data.count / 2] ^= 0x01
        let corrupt = dir.appendingPathComponent("corrupt.group").path
        XCTAssertTrue(FileManager.default.createFile(atPath: corrupt, contents: data, attributes: [.posixPermissions: 0o600]))
        let r = try CLI.run(["mls", "send", "--state", corrupt, "--content", "x"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: corrupt)), data)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: state)
        let exposed = try CLI.run(["mls", "send", "--state", state, "--content", "x"])
        XCTAssertNotEqual(exposed.status, 0)
        XCTAssertTrue(exposed.err.contains("chmod 600"), exposed.err)

        let again = try CLI.run(["mls", "create", "--state", state, "--name", "n", "--relay", MLSCLITests.relay],
                                env: ["INVITEKIT_SECRET_KEY": MLSCLITests.aliceKey])
        XCTAssertNotEqual(again.status, 0, "create never replaces an existing state")
    }
}
