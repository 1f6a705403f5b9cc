import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitMLS

/// Secret-tree behaviour the vectors do not reach: consumption, the out-of-order window and
/// persistence (RFC 9420 §9.2, §9.4).
final class SecretTreeTests: XCTestCase {
    func fresh(_ suite: CipherSuite = .x25519Aes128GcmSha256Ed25519, leaves: UInt32 = 8) throws -> SecretTree {
        try SecretTree(encryptionSecret: SecureBytes(copying: [UInt8](repeating: 0x42, count: 32)), leafCount: leaves, suite: suite)
    }

    func testSenderAndReceiverAgreeOutOfOrder() throws {
        var sender = try fresh(), receiver = try fresh()
        let sent = try (0..<20).map { _ in try sender.nextKey(leaf: 3, type: .application) }
        XCTAssertEqual(sent.map(\.generation), Array(0..<20))
        for g in [19, 4, 0, 18, 7].map(UInt32.init) {
            let k = try receiver.key(leaf: 3, type: .application, generation: g)
            XCTAssertEqual(k.key.exportBytes(), sent[Int(g)].key.exportBytes())
            XCTAssertEqual(k.nonce.exportBytes(), sent[Int(g)].nonce.exportBytes())
            XCTAssertThrowsError(try receiver.key(leaf: 3, type: .application, generation: g)) {
                XCTAssertEqual(($0 as? MLSError)?.code, .generationUnavailable)
            }
        }
        // Handshake and application ratchets are independent.
        XCTAssertNotEqual(try receiver.key(leaf: 3, type: .handshake, generation: 0).key.exportBytes(), sent[0].key.exportBytes())
        // ChaCha20-Poly1305 keys are 32 bytes.
        var chacha = try fresh(.x25519ChaCha20Poly1305Sha256Ed25519)
        XCTAssertEqual(try chacha.nextKey(leaf: 0, type: .handshake).key.count, 32)
    }

    func testKeysOlderThanTheWindowAreDeleted() throws {
        var receiver = try fresh()
        let w = SecretTree.outOfOrderWindow
        _ = try receiver.key(leaf: 0, type: .application, generation: w + 5)
        XCTAssertNoThrow(try receiver.key(leaf: 0, type: .application, generation: 5))
        XCTAssertThrowsError(try receiver.key(leaf: 0, type: .application, generation: 4)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .generationUnavailable)
        }
        XCTAssertLessThanOrEqual(receiver.ratchets[0]![1].retained.count, Int(w))
    }

    func testLeafOutsideTreeIsTyped() throws {
        var t = try fresh(leaves: 2)
        XCTAssertThrowsError(try t.nextKey(leaf: 2, type: .handshake)) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidSender) }
        XCTAssertThrowsError(try SecretTree(encryptionSecret: SecureBytes(zeroedCount: 32), leafCount: 0, suite: .x25519Aes128GcmSha256Ed25519))
        XCTAssertThrowsError(try SecretTree(encryptionSecret: SecureBytes(zeroedCount: 32), leafCount: 1, suite: .p256Aes128GcmSha256P256)) {
            XCTAssertEqual(($0 as? MLSError)?.code, .unsupportedCipherSuite)
        }
    }

    func testSerializationKeepsRetainedKeysAndConsumption() throws {
        var sender = try fresh(), receiver = try fresh()
        let sent = try (0..<10).map { _ in try sender.nextKey(leaf: 5, type: .handshake) }
        _ = try receiver.key(leaf: 5, type: .handshake, generation: 9)
        _ = try receiver.key(leaf: 5, type: .handshake, generation: 2)
        var restored = try SecretTree(tlsSerialized: receiver.tlsSerialized)
        XCTAssertEqual(restored.tlsSerialized, receiver.tlsSerialized)
        XCTAssertEqual(try restored.key(leaf: 5, type: .handshake, generation: 3).key.exportBytes(), sent[3].key.exportBytes())
        XCTAssertThrowsError(try restored.key(leaf: 5, type: .handshake, generation: 2))
        XCTAssertThrowsError(try restored.key(leaf: 5, type: .handshake, generation: 9))
        XCTAssertEqual(try restored.key(leaf: 5, type: .handshake, generation: 10).key.exportBytes(),
                       try sender.nextKey(leaf: 5, type: .handshake).key.exportBytes())
        // Other leaves still derive from the restored node secrets.
        var s2 = try fresh()
        XCTAssertEqual(try restored.key(leaf: 1, type: .application, generation: 0).key.exportBytes(),
                       try s2.nextKey(leaf: 1, type: .application).key.exportBytes())
    }

    func testCorruptSerializationIsTyped() throws {
        var t = try fresh()
        _ = try t.key(leaf: 2, type: .application, generation: 3)
        let bytes = t.tlsSerialized
        for n in 0..<bytes.count {
            XCTAssertThrowsError(try SecretTree(tlsSerialized: Array(bytes.prefix(n)))) { XCTAssertTrue($0 is MLSError) }
        }
        var bad = bytes
        bad[0] = 2
        XCTAssertThrowsError(try SecretTree(tlsSerialized: bad)) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidValue) }
    }
}
