import XCTest
import InviteKitTestSupport
@testable import InviteKit

/// Hostile input for EncodedContent and the InviteJoinError codec: typed errors, never a crash.
final class ContentTypeHostileInputTests: XCTestCase {
    func sample() throws -> [UInt8] {
        try InviteJoinErrorCodec().encode(InviteJoinError(errorType: .conversationExpired, inviteTag: "tag", timestamp: Date(timeIntervalSince1970: 0))).serialized()
    }

    func testTruncationAtEveryByte() throws {
        let bytes = try sample()
        for n in 0..<bytes.count {
            do {
                let e = try EncodedContent(serialized: Array(bytes[..<n]))
                _ = try? InviteJoinErrorCodec().decode(e)  // may parse a shorter valid message; must not crash
            } catch {
                XCTAssertFalse(error.code.rawValue.isEmpty, "prefix \(n): \(error)")
            }
        }
    }

    func testEveryBitFlipEndsInAValueOrATypedError() throws {
        let bytes = try sample()
        for i in 0..<bytes.count {
            for bit in 0..<8 {
                var b = bytes; b[i] ^= UInt8(1 << bit)
                do { _ = try InviteJoinErrorCodec().decode(try EncodedContent(serialized: b)) } catch {
                    XCTAssertTrue(error is ContentTypeError, "byte \(i) bit \(bit): \(error)")
                }
            }
        }
    }

    func testOversizeAndNonUTF8AndDeepNesting() {
        XCTAssertThrowsError(try EncodedContent(serialized: [UInt8](repeating: 0, count: EncodedContent.maxSerializedBytes + 1)))
        // type.authority_id with invalid UTF-8
        XCTAssertThrowsError(try EncodedContent(serialized: [0x0a, 0x03, 0x0a, 0x01, 0xff])) {
            XCTAssertEqual(($0 as? ContentTypeError)?.code, .malformedEncodedContent)
        }
        // a length that runs past the end, and a varint that never ends
        XCTAssertThrowsError(try EncodedContent(serialized: [0x22, 0x7f, 0x01]))
        XCTAssertThrowsError(try EncodedContent(serialized: [0x28] + [UInt8](repeating: 0xff, count: 20)))
        // known field, wrong wire type
        XCTAssertThrowsError(try EncodedContent(serialized: [0x08, 0x01])) { XCTAssertEqual(($0 as? ContentTypeError)?.code, .malformedEncodedContent) }
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        XCTAssertThrowsError(try InviteJoinErrorCodec().decode(EncodedContent(type: .inviteJoinError, content: Array(deep.utf8)))) {
            XCTAssertEqual(($0 as? ContentTypeError)?.code, .invalidJSONFormat)
        }
        XCTAssertThrowsError(try InviteJoinErrorCodec().decode(EncodedContent(type: .inviteJoinError, content: [0xff, 0xfe]))) {
            XCTAssertEqual(($0 as? ContentTypeError)?.code, .invalidJSONFormat)
        }
    }

    func testCompressedContentIsRefusedNotInflated() throws {
        var e = try EncodedContent(serialized: try sample())
        e.compression = .deflate
        XCTAssertThrowsError(try InviteJoinErrorCodec().decode(e)) { XCTAssertEqual(($0 as? ContentTypeError)?.code, .unsupportedCompression) }
    }
}
