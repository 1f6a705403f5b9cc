import InviteKitCrypto
import InviteKitMLS
import InviteKitTestSupport
import XCTest

/// Preview plaintext, hash and ChaCha20-Poly1305 (`nostr-invite-links.md` "Preview descriptor";
/// PROTOCOL §5.14.4).
final class InviteLinkPreviewTests: XCTestCase {
    typealias F = InviteLinkFixture

    func preview(name: String = "n", imageType: InvitePreviewV1.ImageType = .none, image: [UInt8] = []) throws -> InvitePreviewV1 {
        let code = F.code
        return try InvitePreviewV1(inboxPublicKey: code.inboxPublicKey, linkID: code.linkID, bearerHash: code.bearerHash, expiresAt: 0,
                                   approvalMode: .manual, name: name, description: "", imageType: imageType, image: image)
    }

    func assertRefused<T>(_ body: @autoclosure () throws -> T, _ code: MLSError.Code = .invalidInvitePreview,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) {
            XCTAssertEqual(($0 as? MLSError)?.code, code, "\($0)", file: file, line: line)
        }
    }

    /// Raw preview bytes with the given tail after `approval_mode`.
    func rawPreview(name: [UInt8], imageType: UInt8, image: [UInt8]) -> [UInt8] {
        let fixture = F.bytes("preview_hex")
        var w = TLSWriter()
        w.writeBytes(fixture.prefix(2 + 96 + 9)); w.writeOpaque(name); w.writeOpaque([UInt8]()); w.writeUInt8(imageType); w.writeOpaque(image)
        return w.bytes
    }

    func testImageTypeAndLengthRules() throws {
        XCTAssertNoThrow(try preview(imageType: .jpeg, image: [0xff, 0xd8]))
        XCTAssertNoThrow(try preview(imageType: .png, image: [0x89]))
        assertRefused(try self.preview(imageType: .none, image: [1]))
        assertRefused(try self.preview(imageType: .jpeg))
        assertRefused(try self.preview(imageType: .png))
        assertRefused(try self.preview(imageType: .png, image: [UInt8](repeating: 1, count: 49153)))
        XCTAssertNoThrow(try InvitePreviewV1(decoding: rawPreview(name: [0x41], imageType: 1, image: [1])))
        assertRefused(try InvitePreviewV1(decoding: self.rawPreview(name: [0x41], imageType: 0, image: [1])))
        assertRefused(try InvitePreviewV1(decoding: self.rawPreview(name: [0x41], imageType: 2, image: [])))
        assertRefused(try InvitePreviewV1(decoding: self.rawPreview(name: [0x41], imageType: 3, image: [1])))
    }

    func testTextRules() throws {
        assertRefused(try self.preview(name: ""))
        assertRefused(try self.preview(name: String(repeating: "a", count: 257)))
        XCTAssertNoThrow(try preview(name: String(repeating: "a", count: 256)))
        assertRefused(try InvitePreviewV1(decoding: self.rawPreview(name: [0xff], imageType: 0, image: [])))
        assertRefused(try InvitePreviewV1(decoding: self.rawPreview(name: [], imageType: 0, image: [])))
        // Not normalized: a decomposed é stays decomposed and hashes differently.
        let composed = try preview(name: "\u{e9}"), decomposed = try preview(name: "e\u{301}")
        XCTAssertNotEqual(composed.encoded, decomposed.encoded)
        XCTAssertEqual(try InvitePreviewV1(decoding: decomposed.encoded).encoded, decomposed.encoded)
    }

    func testStructureRefusals() {
        let bytes = F.bytes("preview_hex")
        assertRefused(try InvitePreviewV1(decoding: bytes + [0]))
        var version = bytes
        version[1] = 2
        assertRefused(try InvitePreviewV1(decoding: version))
        var mode = bytes
        mode[106] = 2
        assertRefused(try InvitePreviewV1(decoding: mode))
    }

    func testWrongKeyAADOrCiphertextFailsDecryption() throws {
        let code = F.code, nonce = F.bytes("preview_nonce_hex"), ciphertext = F.bytes("preview_ciphertext_hex")
        XCTAssertEqual(try InvitePreviewV1.open(nonce: nonce, ciphertext: ciphertext, code: code).encoded, F.bytes("preview_hex"))
        // Another preview key.
        let otherKey = try InviteCodeV1(inboxPublicKey: code.inboxPublicKey, linkID: code.linkID, bearer: code.bearer,
                                        previewKey: SecureBytes(copying: [UInt8](repeating: 0x34, count: 32)), requestRelays: code.requestRelays)
        assertRefused(try InvitePreviewV1.open(nonce: nonce, ciphertext: ciphertext, code: otherKey), .decryptionFailed)
        // The same key under another link id, or inbox: the AAD differs.
        let otherID = try InviteCodeV1(inboxPublicKey: code.inboxPublicKey, linkID: [UInt8](repeating: 0x12, count: 32), bearer: code.bearer,
                                       previewKey: code.previewKey, requestRelays: code.requestRelays)
        assertRefused(try InvitePreviewV1.open(nonce: nonce, ciphertext: ciphertext, code: otherID), .decryptionFailed)
        let otherInbox = try InviteCodeV1(inboxPublicKey: F.xOnly(2), linkID: code.linkID, bearer: code.bearer,
                                          previewKey: code.previewKey, requestRelays: code.requestRelays)
        assertRefused(try InvitePreviewV1.open(nonce: nonce, ciphertext: ciphertext, code: otherInbox), .decryptionFailed)
        var changed = ciphertext
        changed[0] ^= 1
        assertRefused(try InvitePreviewV1.open(nonce: nonce, ciphertext: changed, code: code), .decryptionFailed)
        var otherNonce = nonce
        otherNonce[0] ^= 1
        assertRefused(try InvitePreviewV1.open(nonce: otherNonce, ciphertext: ciphertext, code: code), .decryptionFailed)
    }

    func testPreviewMustMatchCode() throws {
        // Encrypted correctly for this code, but naming another bearer.
        let code = F.code
        let other = try InvitePreviewV1(inboxPublicKey: code.inboxPublicKey, linkID: code.linkID, bearerHash: [UInt8](repeating: 0, count: 32),
                                        expiresAt: 0, approvalMode: .manual, name: "x", description: "", imageType: .none, image: [])
        let content = try other.descriptorContent(previewKey: code.previewKey)
        assertRefused(try InvitePreviewV1.open(descriptorContent: content, code: code))
    }

    func testDescriptorContentBounds() throws {
        let code = F.code, preview = try preview()
        let content = try preview.descriptorContent(previewKey: code.previewKey)
        XCTAssertEqual(try InvitePreviewV1.open(descriptorContent: content, code: code).encoded, preview.encoded)
        // Fresh nonces: two encryptions differ.
        XCTAssertNotEqual(content, try preview.descriptorContent(previewKey: code.previewKey))
        assertRefused(try InvitePreviewV1.open(descriptorContent: content.replacingOccurrences(of: "=", with: ""), code: code))
        assertRefused(try InvitePreviewV1.open(descriptorContent: " " + content, code: code))
        assertRefused(try InvitePreviewV1.open(descriptorContent: String(repeating: "A", count: 72004), code: code))
        assertRefused(try InvitePreviewV1.open(descriptorContent: Base64.encode([UInt8](repeating: 0, count: 20)), code: code))
        // The largest image fits the 54000-byte descriptor.
        let big = try self.preview(name: String(repeating: "a", count: 256), imageType: .png, image: [UInt8](repeating: 1, count: 49152))
        XCTAssertLessThanOrEqual(12 + big.encoded.count + 16, InvitePreviewV1.maxDescriptorBytes)
        XCTAssertNoThrow(try big.seal(previewKey: code.previewKey))
    }
}
