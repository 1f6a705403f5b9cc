import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitMLS

/// Malformed and hostile PublicMessages and PrivateMessages: each is refused with a typed
/// ``MLSError`` and never traps.
final class FramingHostileInputTests: XCTestCase {
    let suite = CipherSuite.x25519Aes128GcmSha256Ed25519
    let groupID: [UInt8] = Array("hostile-group".utf8)
    let epoch: UInt64 = 7
    let groupContext: [UInt8] = Array(repeating: 0x5a, count: 40)
    let encryptionSecret = [UInt8](repeating: 0x11, count: 32)
    let senderDataSecret = SecureBytes(copying: [UInt8](repeating: 0x22, count: 32))
    let membershipKey = SecureBytes(copying: [UInt8](repeating: 0x33, count: 32))
    let signer = Ed25519.PrivateKey(using: SeededRandom(seed: 9))

    func tree() throws -> SecretTree {
        try SecretTree(encryptionSecret: SecureBytes(copying: encryptionSecret), leafCount: 4, suite: suite)
    }

    func content(_ body: FramedContent.Body, sender: UInt32 = 1) -> FramedContent {
        FramedContent(groupID: groupID, epoch: epoch, sender: .member(leafIndex: sender), authenticatedData: [1, 2], body: body)
    }

    func privateMessage(_ body: FramedContent.Body = .application(Array("hello".utf8)), sendTree: inout SecretTree) throws -> PrivateMessage {
        let signed = AuthenticatedContent.sign(wireFormat: .privateMessage, content: content(body), signer: signer, groupContext: groupContext)
        return try PrivateMessage.protect(signed, secretTree: &sendTree, senderDataSecret: senderDataSecret, padTo: 16, rng: SeededRandom(seed: 1))
    }

    func publicMessage() throws -> PublicMessage {
        var signed = AuthenticatedContent.sign(wireFormat: .publicMessage, content: content(.commit([0, 0])), signer: signer,
                                               groupContext: groupContext)
        signed.auth.confirmationTag = [UInt8](repeating: 7, count: 32)
        return try PublicMessage.protect(signed, membershipKey: membershipKey, groupContext: groupContext)
    }

    func assertCode(_ code: MLSError.Code, _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) {
            XCTAssertEqual(($0 as? MLSError)?.code, code, "\($0)", file: file, line: line)
        }
    }

    func testRoundTripBaseline() throws {
        var send = try tree(), receive = try tree()
        let m = try privateMessage(sendTree: &send)
        let ac = try m.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret)
        try ac.verifySignature(publicKey: signer.publicKey, groupContext: groupContext)
        XCTAssertEqual(ac.content.body, .application(Array("hello".utf8)))
        XCTAssertEqual(ac.content.authenticatedData, [1, 2])
        let p = try publicMessage().unprotect(groupID: groupID, epoch: epoch, membershipKey: membershipKey, groupContext: groupContext)
        try p.verifySignature(publicKey: signer.publicKey, groupContext: groupContext)
    }

    func testEveryTruncationIsTyped() throws {
        var send = try tree()
        let framed = [MLSFramedMessage.privateMessage(try privateMessage(sendTree: &send)).tlsSerialized,
                      MLSFramedMessage.publicMessage(try publicMessage()).tlsSerialized]
        for bytes in framed {
            for n in 0..<bytes.count {
                XCTAssertThrowsError(try MLSFramedMessage(tlsSerialized: Array(bytes.prefix(n)))) {
                    XCTAssertTrue($0 is MLSError, "prefix \(n): \($0)")
                }
            }
            XCTAssertThrowsError(try MLSFramedMessage(tlsSerialized: bytes + [0])) { XCTAssertEqual(($0 as? MLSError)?.code, .trailingBytes) }
        }
    }

    func testGarbageIsTyped() throws {
        let rng = SeededRandom(seed: 42)
        var send = try tree()
        let valid = MLSFramedMessage.privateMessage(try privateMessage(sendTree: &send)).tlsSerialized
        for i in 0..<2_000 {
            var bytes: [UInt8]
            if i % 2 == 0 {
                bytes = rng.bytes(Int(rng.uniform(200)))
                if bytes.count >= 4 { bytes[0] = 0; bytes[1] = 1; bytes[2] = 0; bytes[3] = UInt8(1 + rng.uniform(2)) }
            } else {
                bytes = valid
                bytes[Int(rng.uniform(UInt32(bytes.count)))] ^= UInt8(1 + rng.uniform(255))
            }
            do {
                let m = try MLSFramedMessage(tlsSerialized: bytes)
                var receive = try tree()
                switch m {
                case .privateMessage(let p):
                    _ = try p.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret)
                case .publicMessage(let p):
                    _ = try p.unprotect(groupID: groupID, epoch: epoch, membershipKey: membershipKey, groupContext: groupContext)
                }
                XCTFail("garbage \(i) was accepted")
            } catch {
                XCTAssertTrue(error is MLSError, "garbage \(i): \(error)")
            }
        }
    }

    func testNonZeroPaddingIsRejected() throws {
        var send = try tree(), receive = try tree()
        let c = content(.application([9, 9]))
        let signed = AuthenticatedContent.sign(wireFormat: .privateMessage, content: c, signer: signer, groupContext: groupContext)
        var w = TLSWriter()
        c.body.encode(to: &w)
        signed.auth.encode(to: &w, contentType: .application)
        w.writeBytes([0, 0, 1, 0])
        let key = try send.nextKey(leaf: 1, type: .application)
        let m = try PrivateMessage.seal(plaintext: w.bytes, content: c, leaf: 1, key: key, reuseGuard: [1, 2, 3, 4],
                                        senderDataSecret: senderDataSecret, suite: suite, aead: .aes128gcm)
        assertCode(.invalidPadding) { _ = try m.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret) }
        // The failed message did not burn the generation.
        XCTAssertNoThrow(try receive.key(leaf: 1, type: .application, generation: 0))
    }

    func testWrongEpochAndGroup() throws {
        var send = try tree(), receive = try tree()
        let m = try privateMessage(sendTree: &send)
        assertCode(.wrongEpoch) { _ = try m.unprotect(groupID: groupID, epoch: epoch + 1, secretTree: &receive, senderDataSecret: senderDataSecret) }
        assertCode(.wrongGroup) { _ = try m.unprotect(groupID: [1], epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret) }
        let p = try publicMessage()
        assertCode(.wrongEpoch) { _ = try p.unprotect(groupID: groupID, epoch: 0, membershipKey: membershipKey, groupContext: groupContext) }
        // An epoch field rewritten on the wire breaks the AEAD binding.
        var moved = m
        moved.epoch = epoch + 1
        assertCode(.decryptionFailed) { _ = try moved.unprotect(groupID: groupID, epoch: epoch + 1, secretTree: &receive, senderDataSecret: senderDataSecret) }
    }

    func testGenerationTooFarAhead() throws {
        var receive = try tree()
        let c = content(.application([1]))
        let far = SecretTree.maxForwardDistance + 1
        let key = RatchetKey(generation: far, key: SecureBytes(zeroedCount: 16), nonce: SecureBytes(zeroedCount: 12))
        let m = try PrivateMessage.seal(plaintext: [1, 1, 0], content: c, leaf: 1, key: key, reuseGuard: [0, 0, 0, 0],
                                        senderDataSecret: senderDataSecret, suite: suite, aead: .aes128gcm)
        assertCode(.generationTooFar) { _ = try m.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret) }
        assertCode(.generationTooFar) { _ = try receive.key(leaf: 0, type: .handshake, generation: UInt32.max) }
    }

    func testReusedGenerationIsRefused() throws {
        var send = try tree(), receive = try tree()
        let m = try privateMessage(sendTree: &send)
        _ = try m.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret)
        assertCode(.generationUnavailable) { _ = try m.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret) }
    }

    func testWrongMembershipTag() throws {
        var p = try publicMessage()
        p.membershipTag![5] ^= 1
        assertCode(.invalidMembershipTag) { _ = try p.unprotect(groupID: groupID, epoch: epoch, membershipKey: membershipKey, groupContext: groupContext) }
        p.membershipTag = Array(p.membershipTag!.prefix(31))
        assertCode(.invalidMembershipTag) { _ = try p.unprotect(groupID: groupID, epoch: epoch, membershipKey: membershipKey, groupContext: groupContext) }
        let good = try publicMessage()
        let otherKey = SecureBytes(copying: [UInt8](repeating: 0x34, count: 32))
        assertCode(.invalidMembershipTag) { _ = try good.unprotect(groupID: groupID, epoch: epoch, membershipKey: otherKey, groupContext: groupContext) }
        // A different group context changes the TBM too.
        assertCode(.invalidMembershipTag) { _ = try good.unprotect(groupID: groupID, epoch: epoch, membershipKey: membershipKey, groupContext: [1]) }
    }

    func testTamperedSenderData() throws {
        var send = try tree(), receive = try tree()
        let m = try privateMessage(sendTree: &send)
        for i in 0..<m.encryptedSenderData.count {
            var t = m
            t.encryptedSenderData[i] ^= 0x80
            assertCode(.decryptionFailed) { _ = try t.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret) }
        }
        var t = m
        t.ciphertext[0] ^= 1   // changes the sample, so the sender-data key
        assertCode(.decryptionFailed) { _ = try t.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret) }
        // Sender data naming a leaf outside the tree.
        let c = content(.application([1]))
        let key = RatchetKey(generation: 0, key: SecureBytes(zeroedCount: 16), nonce: SecureBytes(zeroedCount: 12))
        let outside = try PrivateMessage.seal(plaintext: [1, 1, 0], content: c, leaf: 99, key: key, reuseGuard: [0, 0, 0, 0],
                                              senderDataSecret: senderDataSecret, suite: suite, aead: .aes128gcm)
        assertCode(.invalidSender) { _ = try outside.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret) }
        // Nothing was consumed by any of the failures.
        XCTAssertNoThrow(try m.unprotect(groupID: groupID, epoch: epoch, secretTree: &receive, senderDataSecret: senderDataSecret))
    }

    func testBadSignatureAndFormShape() throws {
        var send = try tree(), receive = try tree()
        let ac = try privateMessage(sendTree: &send).unprotect(groupID: groupID, epoch: epoch, secretTree: &receive,
                                                               senderDataSecret: senderDataSecret)
        assertCode(.invalidSignature) { try ac.verifySignature(publicKey: Ed25519.PrivateKey(using: SeededRandom(seed: 10)).publicKey,
                                                               groupContext: groupContext) }
        assertCode(.invalidSignature) { try ac.verifySignature(publicKey: signer.publicKey, groupContext: [0]) }
        let app = AuthenticatedContent.sign(wireFormat: .publicMessage, content: content(.application([1])), signer: signer, groupContext: groupContext)
        assertCode(.invalidValue) { _ = try PublicMessage.protect(app, membershipKey: membershipKey, groupContext: groupContext) }
        let untagged = AuthenticatedContent.sign(wireFormat: .privateMessage, content: content(.commit([0, 0])), signer: signer, groupContext: groupContext)
        assertCode(.invalidValue) { _ = try PrivateMessage.protect(untagged, secretTree: &send, senderDataSecret: senderDataSecret) }
        let external = AuthenticatedContent.sign(wireFormat: .privateMessage,
                                                 content: FramedContent(groupID: groupID, epoch: epoch, sender: .external(senderIndex: 0), body: .proposal([0, 3, 0, 0, 0, 1])),
                                                 signer: signer, groupContext: groupContext)
        assertCode(.invalidSender) { _ = try PrivateMessage.protect(external, secretTree: &send, senderDataSecret: senderDataSecret) }
    }
}
