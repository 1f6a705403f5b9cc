@testable import InviteKitVectors
import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitMLS

/// RFC 9420 §5 helpers against mls-crypto-basics.json, suites 1 and 3.
final class CryptoBasicsVectorTests: XCTestCase {
    func testSuites1And3AllChecksPass() throws {
        let list = try XCTUnwrap(try VectorFiles.json("external/mls-crypto-basics.json") as? [[String: Any]])
        var suitesSeen: Set<UInt16> = []
        var checks = 0
        for e in list {
            let raw = (e["cipher_suite"] as! NSNumber).uint16Value
            guard raw == 1 || raw == 3 else { continue }
            suitesSeen.insert(raw)
            for (name, ok) in MLSVectorSuites.cryptoBasicsChecks(e, suite: CipherSuite(rawValue: raw)) {
                XCTAssertTrue(ok, "suite \(raw) \(name)")
                checks += 1
            }
        }
        XCTAssertEqual(suitesSeen, [1, 3])
        XCTAssertEqual(checks, 2 * 8)
    }

    func testEncryptWithLabelIsReplayableFromSeed() throws {
        let recipient = X25519.PrivateKey(using: SeededRandom(seed: 1))
        let a = try MLSCrypto.encryptWithLabel(suite: .x25519Aes128GcmSha256Ed25519, publicKey: recipient.publicKey, label: "L",
                                               context: [1], plaintext: [9, 9], rng: SeededRandom(seed: 7))
        let b = try MLSCrypto.encryptWithLabel(suite: .x25519Aes128GcmSha256Ed25519, publicKey: recipient.publicKey, label: "L",
                                               context: [1], plaintext: [9, 9], rng: SeededRandom(seed: 7))
        XCTAssertEqual(a, b)
        XCTAssertThrowsError(try MLSCrypto.decryptWithLabel(suite: .x25519Aes128GcmSha256Ed25519, privateKey: recipient,
                                                            label: "other", context: [1], ciphertext: a))
        XCTAssertEqual(try MLSCrypto.decryptWithLabel(suite: .x25519Aes128GcmSha256Ed25519, privateKey: recipient,
                                                      label: "L", context: [1], ciphertext: a), [9, 9])
    }

    func testUnsupportedSuiteIsTyped() {
        XCTAssertThrowsError(try CipherSuite.p256Aes128GcmSha256P256.hpke()) {
            XCTAssertEqual(($0 as? MLSError)?.code, .unsupportedCipherSuite)
        }
    }
}
