import XCTest
import InviteKitTestSupport
@testable import InviteKitMLS

/// Variable-length integers (RFC 9420 §2.1.2) and malformed structures.
final class CodecHostileInputTests: XCTestCase {
    func testDeserializationVectors() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls-deserialization.json") as? [[String: Any]])
        XCTAssertGreaterThan(list.count, 0)
        for e in list {
            let header = hex(e["vlbytes_header"] as! String)
            let length = (e["length"] as! NSNumber).intValue
            var r = TLSReader(header)
            XCTAssertEqual(try r.readVarint(), length)
            XCTAssertTrue(r.isAtEnd)
            var w = TLSWriter()
            w.writeVarint(length)
            XCTAssertEqual(w.bytes, header)
        }
    }

    func code(_ bytes: [UInt8]) -> MLSError.Code? {
        var r = TLSReader(bytes)
        do { _ = try r.readVarint(); return nil } catch { return (error as? MLSError)?.code }
    }

    func testReservedPrefixRejected() {
        XCTAssertEqual(code([0xc0, 0, 0, 0, 0, 0, 0, 1]), .invalidVarint)
        XCTAssertEqual(code([0xff]), .invalidVarint)
    }

    func testNonMinimalRejected() {
        XCTAssertEqual(code([0x40, 0x3f]), .nonMinimalVarint)   // 63 in two bytes
        XCTAssertEqual(code([0x40, 0x00]), .nonMinimalVarint)
        XCTAssertEqual(code([0x80, 0x00, 0x3f, 0xff]), .nonMinimalVarint)  // 16383 in four bytes
        XCTAssertEqual(code([0x80, 0x00, 0x00, 0x01]), .nonMinimalVarint)
        XCTAssertNil(code([0x40, 0x40]))
        XCTAssertNil(code([0x80, 0x00, 0x40, 0x00]))
    }

    func testTruncatedRejected() {
        XCTAssertEqual(code([]), .truncated)
        XCTAssertEqual(code([0x40]), .truncated)
        XCTAssertEqual(code([0x80, 0, 0]), .truncated)
        var r = TLSReader([0x05, 1, 2])
        XCTAssertThrowsError(try r.readOpaque()) { XCTAssertEqual(($0 as? MLSError)?.code, .truncated) }
    }

    func testEveryTruncationOfAKeyPackageFailsCleanly() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls-key-packages.json") as? [[String: String]])
        let bytes = hex(list[0]["mls_key_package"]!)
        for n in 0..<bytes.count {
            XCTAssertThrowsError(try MLSMessage(tlsSerialized: Array(bytes[0..<n])), "prefix \(n)")
        }
        XCTAssertThrowsError(try MLSMessage(tlsSerialized: bytes + [0])) { XCTAssertEqual(($0 as? MLSError)?.code, .trailingBytes) }
    }

    func testRandomMutationsNeverCrash() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls-key-packages.json") as? [[String: String]])
        let bytes = hex(list[3]["mls_key_package"]!)
        var state: UInt64 = 0x9e3779b97f4a7c15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        var parsedChanged = 0
        for _ in 0..<2000 {
            var m = bytes
            let i = Int(next() % UInt64(m.count))
            m[i] ^= UInt8(truncatingIfNeeded: next() | 1)
            if let msg = try? MLSMessage(tlsSerialized: m) {
                XCTAssertEqual(msg.tlsSerialized, m)  // anything that parses re-serializes exactly
                if let kp = try? msg.keyPackage, kp.cipherSuite.isSupported, (try? kp.verify()) != nil { parsedChanged += 1 }
            }
        }
        XCTAssertEqual(parsedChanged, 0, "a mutated KeyPackage verified")
    }

    func testWrongWireFormatRejected() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls-key-packages.json") as? [[String: String]])
        var bytes = hex(list[0]["mls_key_package"]!)
        bytes[3] = 9  // no such wire format (RFC 9420 §17.2)
        XCTAssertThrowsError(try MLSMessage(tlsSerialized: bytes)) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidValue) }
    }
}
