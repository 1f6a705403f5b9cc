import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitNostr

/// Printing, interpolating or dumping a secret-bearing value shows no key material.
final class SecretPrintingTests: XCTestCase {
    func testKeysAndConversationKeysAreRedacted() throws {
        let key = Secp256k1.PrivateKey(using: SeededRandom(seed: 42))
        let secretHex = Hex.encode(key.rawRepresentation.exportBytes())
        let ck = try NIP44.ConversationKey(privateKey: key, publicKey: Secp256k1.PrivateKey(using: SeededRandom(seed: 43)).publicKey)
        let ckHex = Hex.encode(ck.rawRepresentation.exportBytes())
        var dumped = ""
        dump(key, to: &dumped); dump(ck, to: &dumped)
        let printed = [String(describing: key), "\(ck)", String(reflecting: ck), dumped, String(describing: ck.messageKeys(nonce: [UInt8](repeating: 0, count: 32)))]
        for text in printed {
            XCTAssertFalse(text.contains(secretHex.prefix(16)), text)
            XCTAssertFalse(text.contains(ckHex.prefix(16)), text)
            XCTAssertTrue(text.contains("redacted"), text)
        }
        // The raw bytes never appear in decimal either (Mirror of a [UInt8] would print them).
        let firstBytes = key.rawRepresentation.exportBytes().prefix(4).map(String.init).joined(separator: ", ")
        XCTAssertFalse(dumped.contains(firstBytes))
    }
}
