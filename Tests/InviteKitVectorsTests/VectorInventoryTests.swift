import XCTest
import Foundation
import InviteKitVectors
import InviteKitTestSupport

/// The inventory of `vectors/` (issue 20, row 10).
final class VectorInventoryTests: XCTestCase {
    func testUndeclaredUnlistedAndMissingListedFilesFail() throws {
        let tmp = TemporaryDirectory(prefix: "invitekit-inventory")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.path
        try FileManager.default.createDirectory(atPath: tmp.file("sub"), withIntermediateDirectories: true)
        for name in ["sub/declared.json", "sub/stray.json", "notes.md"] { try Data("[1]".utf8).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        try Data("# x\n- `notes.md` — documentation\n- `gone.json` — was here\n- `sub/stray.json`\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/SOURCES.md"))
        let r = VectorSuiteRegistry.inventory(directory: dir, declarations: [VectorSuiteDeclaration(suite: "s", files: ["sub/declared.json"], minimumCases: 1)])
        XCTAssertEqual(r.passed, 2, "\(r.failures)")  // declared.json, notes.md
        XCTAssertEqual(r.failed, 2, "\(r.failures)")  // stray.json (listed without a reason), gone.json
        XCTAssertTrue(r.failures.contains { $0.hasPrefix("sub/stray.json: belongs to no declared suite") }, "\(r.failures)")
        XCTAssertTrue(r.failures.contains { $0.hasPrefix("gone.json: listed in SOURCES.md but missing") }, "\(r.failures)")
    }
}
