import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// QR capacity without truncation (PROTOCOL §5.14.17; `features/group-invite-links.md`
/// "Creating and sharing": a QR only when the complete payload fits): the largest code that fits
/// is drawn whole and scans back to the exact code; one character more and the QR is refused
/// (`input_too_large`), never cut, while the text form still carries the whole code.
final class InviteLinkQRCapacityTests: XCTestCase {
    /// A code naming `count` relays whose paths are padded by `padding` bytes each.
    private func code(relays count: Int, padding: Int) throws -> InviteCodeV1 {
        let relays = (0..<count).map { "wss://relay\($0).example.com/" + String(repeating: "p", count: padding) }
        return try InviteCodeV1(inboxPublicKey: Secp256k1.PrivateKey(using: SeededRandom(seed: 1)).publicKey.rawRepresentation,
                                linkID: [UInt8](repeating: 0x11, count: 32), bearer: SecureBytes(copying: [UInt8](repeating: 0x22, count: 32)),
                                previewKey: SecureBytes(copying: [UInt8](repeating: 0x33, count: 32)), requestRelays: relays)
    }

    func testTheLargestFittingCodeIsDrawnWholeAndALongerOneIsRefused() throws {
        // The longest padding whose uppercase code still fits a QR, with four relays.
        var padding = 0
        while try code(relays: 4, padding: padding + 1).bech32m.utf8.count <= QRCode.maxPayloadBytes { padding += 1 }
        let fitting = try code(relays: 4, padding: padding)
        let text = fitting.bech32m.uppercased()
        XCTAssertGreaterThan(text.utf8.count, QRCode.maxPayloadBytes - 8, "the code is at the QR's capacity")
        let qr = try QRCode(text: text)
        if let scanned = try zbar(try qr.pngData()) {
            XCTAssertEqual(scanned, text, "the QR carries the complete code")
            XCTAssertEqual(try InviteCodeV1(bech32m: scanned).encoded, fitting.encoded)
        }

        // One more byte: refused, not truncated; the text still decodes to every relay.
        let longer = try code(relays: 4, padding: padding + 1)
        XCTAssertGreaterThan(longer.bech32m.utf8.count, QRCode.maxPayloadBytes)
        XCTAssertThrowsError(try QRCode(text: longer.bech32m.uppercased())) {
            XCTAssertEqual(($0 as? InviteError)?.code, .inputTooLarge)
        }
        XCTAssertEqual(try InviteCodeV1(bech32m: longer.bech32m).requestRelays, longer.requestRelays)

        // The largest code the format allows (eight relays, 4096 bytes of them) is no QR either.
        var largest = 0
        while (try? code(relays: 8, padding: largest + 1)) != nil { largest += 1 }
        let maximal = try code(relays: 8, padding: largest)
        XCTAssertThrowsError(try QRCode(text: maximal.bech32m.uppercased()))
        XCTAssertEqual(try InviteCodeV1(bech32m: maximal.bech32m.uppercased()).encoded, maximal.encoded)
    }

    /// The text zbar reads from `png`, or `nil` without zbar (`zbar-tools`).
    private func zbar(_ png: [UInt8]) throws -> String? {
        guard QRScan.isAvailable else { return nil }
        let scan = try QRScan.text(in: png)
        XCTAssertEqual(scan.status, 0)
        return scan.text
    }
}
