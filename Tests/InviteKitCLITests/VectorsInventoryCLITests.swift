import Foundation
import XCTest
import InviteKitTestSupport

/// Row 10 of issue 20: every file under `vectors/` is checked by a declared suite or listed as
/// reference-only in `vectors/SOURCES.md`; `vectors verify` fails on a missing declared file and
/// on an undeclared one.
final class VectorsInventoryCLITests: XCTestCase {
    func copyOfVectors() throws -> (TemporaryDirectory, URL) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = TemporaryDirectory(prefix: "ik-cli")
        let copy = dir.fileURL("vectors")
        try FileManager.default.copyItem(at: root.appendingPathComponent("vectors"), to: copy)
        return (dir, copy)
    }

    func testTheRepositoryVectorsAreAllAccountedFor() throws {
        let (dir, copy) = try copyOfVectors()
        defer { withExtendedLifetime(dir) {} }
        let r = try CLI.run(["vectors", "verify", "--dir", copy.path])
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.contains("ok   vectors-inventory"), r.out)
        XCTAssertTrue(r.out.contains("ok   marmot-mdk-0.8.0: 8 passed"), r.out)
    }

    func testEachMDKSampleIsDeclared() throws {
        let (dir, copy) = try copyOfVectors()
        defer { withExtendedLifetime(dir) {} }
        let samples = try FileManager.default.contentsOfDirectory(atPath: copy.appendingPathComponent("marmot/mdk-0.8.0").path).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(samples.count, 8)
        for name in samples {
            let file = copy.appendingPathComponent("marmot/mdk-0.8.0/\(name)")
            let bytes = try Data(contentsOf: file)
            try FileManager.default.removeItem(at: file)
            let r = try CLI.run(["vectors", "verify", "--dir", copy.path])
            XCTAssertEqual(r.status, 1, "deleting \(name) went unnoticed: \(r.out)")
            XCTAssertTrue(r.out.contains("FAIL marmot-mdk-0.8.0"), r.out)
            try bytes.write(to: file)
        }
    }

    func testAnUndeclaredFileFailsAndAListedOneMustExist() throws {
        let (dir, copy) = try copyOfVectors()
        defer { withExtendedLifetime(dir) {} }
        let stray = copy.appendingPathComponent("external/mls/extra-cases.json")
        try Data("[1]".utf8).write(to: stray)
        let r = try CLI.run(["vectors", "verify", "--dir", copy.path])
        XCTAssertEqual(r.status, 1, r.out)
        XCTAssertTrue(r.out.contains("FAIL vectors-inventory"), r.out)
        XCTAssertTrue(r.out.contains("external/mls/extra-cases.json: belongs to no declared suite"), r.out)

        // Listing it as reference-only, with a reason, accounts for it.
        let sources = copy.appendingPathComponent("SOURCES.md")
        var text = try String(contentsOf: sources, encoding: .utf8)
        text += "- `external/mls/extra-cases.json` — kept for a later suite\n"
        try text.write(to: sources, atomically: true, encoding: .utf8)
        XCTAssertEqual(try CLI.run(["vectors", "verify", "--dir", copy.path]).status, 0)

        // A listed file that went missing fails too.
        try FileManager.default.removeItem(at: stray)
        let gone = try CLI.run(["vectors", "verify", "--dir", copy.path])
        XCTAssertEqual(gone.status, 1, gone.out)
        XCTAssertTrue(gone.out.contains("listed in SOURCES.md but missing"), gone.out)
    }
}
