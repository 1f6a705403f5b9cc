import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitMLS

/// Key-schedule properties beyond the vectors (RFC 9420 §8, §12.4.3.1).
final class KeyScheduleTests: XCTestCase {
    let suite = CipherSuite.x25519Aes128GcmSha256Ed25519

    func testJoinerPathMatchesCommitterPath() throws {
        let gc: [UInt8] = Array(repeating: 3, count: 50)
        let initSecret = KeySchedule.randomInitSecret(suite: suite, rng: SeededRandom(seed: 1))
        let committer = try KeySchedule.nextEpoch(initSecret: initSecret, commitSecret: [UInt8](repeating: 0, count: 32),
                                                  groupContext: gc, suite: suite)
        let joiner = try KeySchedule.fromJoinerSecret(committer.joinerSecret, groupContext: gc, suite: suite)
        XCTAssertTrue(joiner.epochAuthenticator.constantTimeEquals(committer.epochAuthenticator))
        XCTAssertTrue(joiner.initSecret.constantTimeEquals(committer.initSecret))
        XCTAssertEqual(joiner.export(label: "marmot", context: [1], length: 32).exportBytes(),
                       committer.export(label: "marmot", context: [1], length: 32).exportBytes())
        // The GroupContext is bound in: another context gives other secrets.
        let other = try KeySchedule.fromJoinerSecret(committer.joinerSecret, groupContext: gc + [0], suite: suite)
        XCTAssertFalse(other.encryptionSecret.constantTimeEquals(committer.encryptionSecret))
    }

    func testWelcomeKeyLengthsPerSuite() throws {
        let ws = SecureBytes(copying: [UInt8](repeating: 9, count: 32))
        let aes = try KeySchedule.welcomeKeyAndNonce(welcomeSecret: ws, suite: suite)
        XCTAssertEqual(aes.key.count, 16)
        XCTAssertEqual(aes.nonce.count, 12)
        XCTAssertEqual(try KeySchedule.welcomeKeyAndNonce(welcomeSecret: ws, suite: .x25519ChaCha20Poly1305Sha256Ed25519).key.count, 32)
        XCTAssertThrowsError(try KeySchedule.welcomeKeyAndNonce(welcomeSecret: ws, suite: .p256Aes128GcmSha256P256))
    }

    func testConfirmationTagVerifies() throws {
        let s = try KeySchedule.nextEpoch(initSecret: [UInt8](repeating: 1, count: 32), commitSecret: [UInt8](repeating: 2, count: 32),
                                          groupContext: [], suite: suite)
        let tag = s.confirmationTag(confirmedTranscriptHash: [7, 7])
        XCTAssertNoThrow(try s.verifyConfirmationTag(tag, confirmedTranscriptHash: [7, 7]))
        XCTAssertThrowsError(try s.verifyConfirmationTag(tag, confirmedTranscriptHash: [7, 8])) {
            XCTAssertEqual(($0 as? MLSError)?.code, .invalidConfirmationTag)
        }
        XCTAssertThrowsError(try KeySchedule.nextEpoch(initSecret: [UInt8](), commitSecret: [UInt8](), groupContext: [],
                                                       suite: .p256Aes128GcmSha256P256))
    }
}
