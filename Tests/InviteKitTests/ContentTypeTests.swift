import XCTest
import InviteKitTestSupport
@testable import InviteKit

final class ContentTypeTests: XCTestCase {
    func testContentTypeIDRendersAndParses() throws {
        XCTAssertEqual(ContentTypeID.inviteJoinError.description, "convos.org/invite_join_error:1.0")
        XCTAssertEqual(try ContentTypeID(parsing: "convos.org/join_request:1.0"), .joinRequest)
        XCTAssertEqual(try ContentTypeID(parsing: "xmtp.org/text:12.34").versionMinor, 34)
        for bad in ["", "convos.org", "a/b", "a/b:1", "a/b:1.", "a/b:x.0", "/b:1.0", "a/:1.0", "a/b/c:1.0", "a/b:1.0.0", "a/b:-1.0"] {
            XCTAssertThrowsError(try ContentTypeID(parsing: bad), bad) { XCTAssertEqual(($0 as? ContentTypeError)?.code, .invalidContentTypeID) }
        }
    }

    /// Hand-assembled protobuf: proves the field numbers and wire types match XMTP's schema.
    func testEncodedContentBytesMatchTheXMTPSchema() throws {
        let e = EncodedContent(type: .inviteJoinError, parameters: ["b": "2", "a": "1"], fallback: "x", content: Array("{}".utf8))
        var expected: [UInt8] = [0x0a, 0x21, 0x0a, 0x0a] + Array("convos.org".utf8) + [0x12, 0x11] + Array("invite_join_error".utf8) + [0x18, 0x01]
        expected += [0x12, 0x06, 0x0a, 0x01, 0x61, 0x12, 0x01, 0x31]   // parameters entry a=1 (sorted)
        expected += [0x12, 0x06, 0x0a, 0x01, 0x62, 0x12, 0x01, 0x32]   // b=2
        expected += [0x1a, 0x01, 0x78, 0x22, 0x02, 0x7b, 0x7d]
        XCTAssertEqual(e.serialized(), expected)
        XCTAssertEqual(try EncodedContent(serialized: expected), e)
        var compressed = e; compressed.compression = .gzip
        XCTAssertEqual(try EncodedContent(serialized: compressed.serialized()).compression, .gzip)
    }

    func testEncodedContentSkipsUnknownFields() throws {
        let e = EncodedContent(type: .joinRequest, content: [1, 2, 3])
        let withUnknown = e.serialized() + [0x38, 0x05] + [0x42, 0x02, 0xff, 0xfe]  // field 7 varint, field 8 bytes
        XCTAssertEqual(try EncodedContent(serialized: withUnknown), e)
    }

    func testInviteJoinErrorRoundTripAndFallback() throws {
        let codec = InviteJoinErrorCodec()
        let value = InviteJoinError(errorType: .singleUseConsumed, inviteTag: "AbCdE12345", timestamp: Date(timeIntervalSince1970: 1_795_000_000), reason: "used")
        let encoded = try codec.encode(value)
        XCTAssertEqual(encoded.type, .inviteJoinError)
        XCTAssertEqual(encoded.fallback, "This invite was already used")
        XCTAssertTrue(codec.shouldPush(value))
        XCTAssertEqual(String(decoding: encoded.content, as: UTF8.self),
                       #"{"errorType":"single_use_consumed","inviteTag":"AbCdE12345","timestamp":"2026-11-18T11:06:40Z","reason":"used"}"#)
        XCTAssertEqual(try codec.decode(try EncodedContent(serialized: encoded.serialized())), value)
    }

    func testInviteJoinErrorAcceptsFractionalSecondsAndKeepsUnknownTypes() throws {
        let codec = InviteJoinErrorCodec()
        let json = #"{"errorType":"banned_by_moon","inviteTag":"t","timestamp":"2026-11-18T11:06:40.123Z"}"#
        let decoded = try codec.decode(EncodedContent(type: .inviteJoinError, content: Array(json.utf8)))
        XCTAssertEqual(decoded.errorType, .unknown("banned_by_moon"))
        XCTAssertEqual(decoded.userFacingMessage, InviteJoinError.ErrorType.genericFailure.userFacingMessage)
        XCTAssertEqual(decoded.timestamp.timeIntervalSince1970, 1_795_000_000.123, accuracy: 0.001)
        for type in InviteJoinError.ErrorType.allCases {
            XCTAssertEqual(InviteJoinError.ErrorType(rawValue: type.rawValue), type)
        }
    }

    func testInviteJoinErrorOwnErrors() {
        let codec = InviteJoinErrorCodec()
        func code(_ s: String) -> ContentTypeError.Code? {
            do { _ = try codec.decode(EncodedContent(type: .inviteJoinError, content: Array(s.utf8))); return nil } catch { return (error as? ContentTypeError)?.code }
        }
        XCTAssertEqual(code(""), .emptyContent)
        XCTAssertEqual(code("not json"), .invalidJSONFormat)
        XCTAssertEqual(code("[]"), .invalidJSONFormat)
        XCTAssertEqual(code(#"{"errorType":"generic_failure","inviteTag":"t"}"#), .invalidJSONFormat)
        XCTAssertEqual(code(#"{"errorType":"generic_failure","inviteTag":"t","timestamp":"yesterday"}"#), .invalidJSONFormat)
        XCTAssertEqual(code(#"{"errorType":"generic_failure","inviteTag":"t","timestamp":"2026-01-01T00:00:00Z","reason":"\#(String(repeating: "x", count: 501))"}"#), .invalidJSONFormat)
        XCTAssertNil(code(#"{"errorType":"generic_failure","inviteTag":"t","timestamp":"2026-01-01T00:00:00Z","reason":"\#(String(repeating: "x", count: 500))"}"#))
        XCTAssertThrowsError(try codec.decode(EncodedContent(type: .joinRequest, content: [1]))) {
            XCTAssertEqual(($0 as? ContentTypeError)?.code, .wrongContentType)
        }
        XCTAssertEqual(InviteJoinError(errorType: .genericFailure, inviteTag: "t", timestamp: Date(), reason: String(repeating: "y", count: 900)).reason?.count, 500)
    }

    /// InviteKit has one join request, the kind-1080 rumor: `convos.org/join_request` is not a
    /// registered content type, and the registry decodes the join error.
    func testRegistryHoldsTheJoinErrorOnly() throws {
        let error = InviteJoinError(errorType: .singleUseConsumed, inviteTag: "abc", timestamp: Date(timeIntervalSince1970: 1_800_000_000))
        let encoded = try InviteJoinErrorCodec().encode(error)
        let viaRegistry = try ContentCodecRegistry.standard.decode(try EncodedContent(serialized: encoded.serialized()))
        XCTAssertEqual(viaRegistry as? InviteJoinError, error)
        XCTAssertFalse(ContentCodecRegistry.standard.isRegistered(.joinRequest))
        XCTAssertThrowsError(try ContentCodecRegistry.standard.decode(EncodedContent(type: .joinRequest, content: [1]))) {
            XCTAssertEqual(($0 as? ContentTypeError)?.code, .unknownContentType)
        }
    }
}
