import XCTest
import InviteKitTestSupport
@testable import InviteKitCrypto

/// BIP-340's official vectors (vectors/external/bip340-test-vectors.csv), including rows 15–18
/// whose messages are 0, 1, 17 and 100 bytes long.
final class BIP340VectorTests: XCTestCase {
    struct Row { let index: Int; let secret: String; let pubkey: String; let aux: String; let message: String; let signature: String; let valid: Bool }

    func rows() throws -> [Row] {
        let text = String(decoding: try VectorFiles.data("external/bip340-test-vectors.csv"), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Row(index: Int(f[0])!, secret: f[1], pubkey: f[2], aux: f[3], message: f[4], signature: f[5], valid: f[6] == "TRUE")
        }
    }

    func testVerificationMatchesEveryRow() throws {
        let all = try rows()
        XCTAssertEqual(all.count, 19)
        for row in all {
            let key = try? Secp256k1.XOnlyPublicKey(rawRepresentation: hex(row.pubkey))
            let ok = key?.isValidSchnorrSignature(hex(row.signature), for: hex(row.message)) ?? false
            XCTAssertEqual(ok, row.valid, "row \(row.index)")
        }
    }

    func testSigningReproducesEverySignedRow() throws {
        let signed = try rows().filter { !$0.secret.isEmpty }
        XCTAssertGreaterThanOrEqual(signed.count, 8)
        for row in signed {
            let key = try Secp256k1.PrivateKey(rawRepresentation: hex(row.secret))
            XCTAssertEqual(key.publicKey.hex, row.pubkey.lowercased(), "row \(row.index)")
            let sig = try key.schnorrSignature(for: hex(row.message), auxiliaryRandomness: hex(row.aux))
            XCTAssertEqual(Hex.encode(sig), row.signature.lowercased(), "row \(row.index)")
        }
    }
}
