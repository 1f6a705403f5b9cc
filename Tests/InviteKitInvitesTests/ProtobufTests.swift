import XCTest
@testable import InviteKitInvites

final class ProtobufTests: XCTestCase {
    func testVarintRoundTrip() throws {
        for v: UInt64 in [0, 1, 127, 128, 300, 16_384, UInt64(UInt32.max), UInt64.max] {
            var w = ProtoWriter()
            w.writeVarint(v)
            var r = ProtoReader(w.bytes)
            XCTAssertEqual(try r.readVarint(), v)
            XCTAssertTrue(r.isAtEnd)
        }
    }

    func testPayloadRoundTripAllFields() throws {
        let p = InvitePayload(
            conversationToken: [1, 2, 3], creatorInboxId: Array(repeating: 7, count: 32), tag: "AbCdEfGhIj",
            name: "Book club", description: "", imageURL: "https://example.com/a.png",
            conversationExpiresAtUnix: -5, expiresAtUnix: 1_900_000_000, expiresAfterUse: true, emoji: "📚",
            relays: ["wss://a.example", "wss://b.example"], mipProfile: true)
        let bytes = p.serializedBytes()
        XCTAssertEqual(try InvitePayload(serializedBytes: bytes), p)
    }

    /// Field 101 (PROTOCOL §3.2): a bool written only when true, after the relays; a wrong wire
    /// type is an error like any known field's.
    func testMIPProfileFieldIsWrittenOnlyWhenTrue() throws {
        XCTAssertEqual(InvitePayload(mipProfile: false).serializedBytes(), [])
        XCTAssertEqual(InvitePayload(mipProfile: true).serializedBytes(), [0xA8, 0x06, 0x01])
        XCTAssertEqual(InvitePayload(relays: ["r"], mipProfile: true).serializedBytes(), [0xA2, 0x06, 0x01, 0x72, 0xA8, 0x06, 0x01])
        XCTAssertTrue(try InvitePayload(serializedBytes: [0xA8, 0x06, 0x01]).mipProfile)
        XCTAssertFalse(try InvitePayload(serializedBytes: [0xA8, 0x06, 0x00]).mipProfile)
        XCTAssertThrowsError(try InvitePayload(serializedBytes: [0xAA, 0x06, 0x00]))
    }

    func testOptionalEmptyStringIsPresentAndImplicitDefaultsAreOmitted() throws {
        XCTAssertEqual(InvitePayload().serializedBytes(), [])
        let p = InvitePayload(name: "")
        XCTAssertEqual(p.serializedBytes(), [0x22, 0x00])
        XCTAssertEqual(try InvitePayload(serializedBytes: [0x22, 0x00]).name, "")
        XCTAssertEqual(try InvitePayload(serializedBytes: []).name, nil)
    }

    func testSFixed64IsLittleEndianTwosComplement() {
        let p = InvitePayload(expiresAtUnix: -2)
        XCTAssertEqual(p.serializedBytes(), [0x41, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    }

    func testUnknownFieldsArePreservedVerbatim() throws {
        // field 11 varint 5, field 200 LEN "hi", field 12 fixed32
        let unknown: [UInt8] = [0x58, 0x05, 0xC2, 0x0C, 0x02, 0x68, 0x69, 0x65, 1, 2, 3, 4]
        let bytes = InvitePayload(tag: "t").serializedBytes() + unknown
        let p = try InvitePayload(serializedBytes: bytes)
        XCTAssertEqual(p.unknownFields.count, 3)
        XCTAssertEqual(p.serializedBytes(), bytes)
    }

    func testLastValueWinsForRepeatedSingularField() throws {
        let bytes: [UInt8] = [0x1A, 0x01, 0x61, 0x1A, 0x01, 0x62]
        XCTAssertEqual(try InvitePayload(serializedBytes: bytes).tag, "b")
    }

    func testTypedErrors() {
        func code(_ b: [UInt8]) -> ProtobufError.Code? {
            do { _ = try InvitePayload(serializedBytes: b); return nil } catch { return error.code }
        }
        XCTAssertEqual(code([0x48]), .truncatedVarint)
        XCTAssertEqual(code([0x48, 0x80, 0x80]), .truncatedVarint)
        XCTAssertEqual(code([0x48] + Array(repeating: 0xFF, count: 10) + [0x01]), .overlongVarint)
        XCTAssertEqual(code([0x48] + Array(repeating: 0xFF, count: 9) + [0x02]), .overlongVarint)
        XCTAssertEqual(code([0x0A, 0x05, 0x01]), .lengthPastEnd)
        XCTAssertEqual(code([0x0A] + Array(repeating: 0xFF, count: 9) + [0x01]), .lengthPastEnd)
        XCTAssertEqual(code([0x18, 0x01]), .wrongWireType)  // tag as varint
        XCTAssertEqual(code([0x39, 0x01, 0x02]), .truncatedFixed)  // field 7 fixed64 cut short
        XCTAssertEqual(code([0x0B]), .groupWireType)  // field 1 start group
        XCTAssertEqual(code([0x5C]), .groupWireType)  // field 11 end group
        XCTAssertEqual(code([0x5E]), .invalidWireType)
        XCTAssertEqual(code([0x02, 0x00]), .invalidFieldNumber)
        XCTAssertEqual(code([0x1A, 0x01, 0xFF]), .invalidUTF8)
    }
}
