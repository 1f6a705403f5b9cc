import XCTest
import InviteKitCrypto
@testable import InviteKitInvites
import InviteKitTestSupport

final class QRCodeTests: XCTestCase {
    func zbar(_ png: [UInt8]) throws -> String {
        guard QRScan.isAvailable else { throw XCTSkip("zbarimg (zbar-tools) not installed") }
        let scan = try QRScan.text(in: png)
        XCTAssertEqual(scan.status, 0)
        return scan.text
    }

    func testPNGDecodesToExactWhistleURL() throws {
        let code = InviteCode(relay: "wss://relay.example.com", inviter: TestKeys.creator.publicKey,
                              groupId: "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00")
        let png = try QRCode(text: code.url).pngData()
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(try zbar(png), code.url)
    }

    func testPNGDecodesToExactLongSignedInviteURL() throws {
        let options = InviteOptions(
            relays: ["wss://relay.damus.io", "wss://nos.lol", "wss://relay.primal.net", "wss://relay.nostr.band"],
            name: "Weekend hiking group", description: "Trails, carpools and photos from our weekend hikes around the bay",
            imageURL: "https://images.example.com/groups/hiking/cover-2026.jpg", emoji: "🥾",
            expiresAtUnix: 1_900_000_000, conversationExpiresAtUnix: 1_950_000_000, singleUse: true)
        let invite = try SignedInvite.create(conversationID: String(repeating: "ab", count: 32), creator: TestKeys.creator,
                                             options: options, using: SeededRandom(seed: 5))
        let url = try invite.url(domain: "join.example.org")
        XCTAssertGreaterThan(url.utf8.count, 400)
        let png = try QRCode(text: url).pngData(scale: 4)
        XCTAssertEqual(try zbar(png), url)
        XCTAssertEqual(try SignedInvite(link: try zbar(png)).payloadBytes, invite.payloadBytes)
    }

    func testTerminalRenderingUsesHalfBlocks() throws {
        let qr = try QRCode(text: "whistle://invite/abc")
        let text = qr.terminalString(quietZone: 2)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, (qr.size + 4 + 1) / 2)
        XCTAssertTrue(lines.allSatisfy { $0.count == qr.size + 4 })
        XCTAssertTrue(text.unicodeScalars.allSatisfy { " ▀▄█\n".unicodeScalars.contains($0) })
        // The first line is all quiet zone: light everywhere, drawn as ink by default.
        XCTAssertTrue(lines[0].allSatisfy { $0 == "█" })
        XCTAssertTrue(qr.terminalString(invert: true).split(separator: "\n")[0].allSatisfy { $0 == " " })
    }

    func testTooLongPayloadIsRefused() {
        XCTAssertThrowsError(try QRCode(text: String(repeating: "x", count: 3000))) {
            XCTAssertEqual(($0 as? InviteError)?.code, .inputTooLarge)
        }
    }
}
