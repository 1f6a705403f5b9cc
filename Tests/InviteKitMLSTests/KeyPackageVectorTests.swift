@testable import InviteKitVectors
import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// The 300 KeyPackages of the MLS interop suite (vectors/external/mls-key-packages.json).
final class KeyPackageVectorTests: XCTestCase {
    func entries() throws -> [[UInt8]] {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls-key-packages.json") as? [[String: String]])
        return list.map { hex($0["mls_key_package"]!) }
    }

    func testAll300RoundTripByteExact() throws {
        let all = try entries()
        XCTAssertEqual(all.count, 300)
        for (i, bytes) in all.enumerated() {
            let msg = try MLSMessage(tlsSerialized: bytes)
            XCTAssertEqual(msg.tlsSerialized, bytes, "entry \(i)")
        }
    }

    func testSuites1And3SignaturesVerify() throws {
        var counts: [UInt16: Int] = [:]
        for bytes in try entries() {
            let kp = try MLSMessage(tlsSerialized: bytes).keyPackage
            counts[kp.cipherSuite.rawValue, default: 0] += 1
            guard kp.cipherSuite.isSupported else { continue }
            XCTAssertNoThrow(try kp.verify())
            XCTAssertEqual(kp.reference.count, 32)
        }
        XCTAssertEqual(counts, [1: 100, 2: 100, 3: 100])
    }

    func testTamperedSignatureFails() throws {
        let first = try XCTUnwrap(try entries().first)
        var kp = try MLSMessage(tlsSerialized: first).keyPackage
        kp.signature[0] ^= 1
        XCTAssertThrowsError(try kp.verify()) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidSignature) }
    }

    func testLibrarySuiteRunnerReportsAllPassing() {
        let results = MLSVectorSuites.run(directory: VectorFiles.root)
        let byName = Dictionary(uniqueKeysWithValues: results.map { ($0.suite, ($0.passed, $0.failed)) })
        XCTAssertEqual(byName["mls-key-packages"]?.0, 300)
        XCTAssertEqual(byName["mls-key-packages"]?.1, 0)
        XCTAssertEqual(byName["mls-deserialization"]?.1, 0)
        XCTAssertGreaterThan(byName["mls-deserialization"]?.0 ?? 0, 0)
        XCTAssertEqual(byName["mls-crypto-basics"]?.1, 0)
        XCTAssertGreaterThan(byName["mls-crypto-basics"]?.0 ?? 0, 0)
    }
}
