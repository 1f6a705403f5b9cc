import XCTest
import InviteKitTestSupport
@testable import InviteKitCrypto

final class PrimitiveTests: XCTestCase {
    func testSHA256KnownAnswers() {
        XCTAssertEqual(Hex.encode(SHA256.hash([UInt8]())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(Hex.encode(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// RFC 4231 test cases 1, 2 and 6 (a key longer than the block).
    func testHMACRFC4231() {
        XCTAssertEqual(Hex.encode(HMACSHA256.authenticate(Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))),
                       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        XCTAssertEqual(Hex.encode(HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        XCTAssertEqual(Hex.encode(HMACSHA256.authenticate(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                                                          key: [UInt8](repeating: 0xaa, count: 131))),
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    /// RFC 5869 test cases 1 and 3.
    func testHKDFRFC5869() {
        let prk = HKDF.extract(salt: hex("000102030405060708090a0b0c"), ikm: [UInt8](repeating: 0x0b, count: 22))
        XCTAssertEqual(Hex.encode(prk.exportBytes()), "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        let okm = HKDF.expand(prk: prk, info: hex("f0f1f2f3f4f5f6f7f8f9"), count: 42)
        XCTAssertEqual(Hex.encode(okm.exportBytes()), "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        let prk3 = HKDF.extract(salt: [UInt8](), ikm: [UInt8](repeating: 0x0b, count: 22))
        XCTAssertEqual(Hex.encode(HKDF.expand(prk: prk3, info: [UInt8](), count: 42).exportBytes()),
                       "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    /// RFC 8439 §2.8.2 AEAD test vector.
    func testChaChaPolyRFC8439() throws {
        let key = hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
        let nonce = hex("070000004041424344454647")
        let aad = hex("50515253c0c1c2c3c4c5c6c7")
        let pt = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let sealed = try ChaChaPoly.seal(pt, key: key, nonce: nonce, aad: aad)
        XCTAssertEqual(Hex.encode(sealed.suffix(16)), "1ae10b594f09e26a7e902ecbd0600691")
        XCTAssertEqual(try ChaChaPoly.open(sealed, key: key, nonce: nonce, aad: aad), pt)
        var bad = sealed; bad[3] ^= 1
        XCTAssertThrowsError(try ChaChaPoly.open(bad, key: key, nonce: nonce, aad: aad)) {
            XCTAssertEqual(($0 as? CryptoError)?.code, .authenticationFailed)
        }
    }

    /// RFC 8439 §2.4.2: ChaCha20 with counter 1.
    func testChaCha20RFC8439() throws {
        let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
        let pt = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let ct = try ChaCha20.xor(pt, key: key, nonce: hex("000000000000004a00000000"), counter: 1)
        XCTAssertEqual(Hex.encode(ct.prefix(16)), "6e2e359a2568f98041ba0728dd0d6981")
    }

    /// NIST GCM test case 4 (AES-128, 60-byte plaintext, AAD); truncated to a 12-byte nonce.
    func testAES128GCMKnownAnswer() throws {
        let key = hex("feffe9928665731c6d6a8f9467308308")
        let nonce = hex("cafebabefacedbaddecaf888")
        let pt = hex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let sealed = try AES128GCM.seal(pt, key: key, nonce: nonce, aad: aad)
        XCTAssertEqual(Hex.encode(sealed.suffix(16)), "5bc94fbc3221a5db94fae95ae7121a47")
        XCTAssertEqual(try AES128GCM.open(sealed, key: key, nonce: nonce, aad: aad), pt)
        var bad = sealed; bad[bad.count - 1] ^= 0x80
        XCTAssertThrowsError(try AES128GCM.open(bad, key: key, nonce: nonce, aad: aad))
    }

    /// RFC 7748 §6.1.
    func testX25519RFC7748() throws {
        let a = try X25519.PrivateKey(rawRepresentation: hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        XCTAssertEqual(Hex.encode(a.publicKey), "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        let shared = try a.sharedSecret(with: hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"))
        XCTAssertEqual(Hex.encode(shared.exportBytes()), "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        XCTAssertThrowsError(try a.sharedSecret(with: [UInt8](repeating: 0, count: 32)))
    }

    /// RFC 8032 §7.1 test 2 (one-byte message).
    func testEd25519RFC8032() throws {
        let k = try Ed25519.PrivateKey(rawRepresentation: hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"))
        XCTAssertEqual(Hex.encode(k.publicKey), "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
        let sig = k.signature(for: [0x72])
        XCTAssertEqual(Hex.encode(sig), "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
        XCTAssertTrue(Ed25519.isValidSignature(sig, for: [0x72], publicKey: k.publicKey))
        XCTAssertFalse(Ed25519.isValidSignature(sig, for: [0x73], publicKey: k.publicKey))
    }

    func testRecoverableECDSARoundTrip() throws {
        let key = Secp256k1.PrivateKey(using: SeededRandom(seed: 7))
        let digest = SHA256.hash(Array("payload".utf8))
        let sig = try key.recoverableSignature(digest32: digest)
        XCTAssertEqual(sig.count, 65)
        let recovered = try Secp256k1.ECDSA.recoverPublicKey(signature: sig, digest32: digest)
        XCTAssertEqual(recovered, key.fullPublicKey)
        XCTAssertEqual(recovered.xOnly, key.publicKey)
        var other = digest; other[0] ^= 1
        XCTAssertNotEqual(try? Secp256k1.ECDSA.recoverPublicKey(signature: sig, digest32: other), key.fullPublicKey)
        var badRecid = sig; badRecid[64] = 4
        XCTAssertThrowsError(try Secp256k1.ECDSA.recoverPublicKey(signature: badRecid, digest32: digest))
    }

    func testECDHIsSymmetricAndUnhashed() throws {
        let a = Secp256k1.PrivateKey(using: SeededRandom(seed: 1)), b = Secp256k1.PrivateKey(using: SeededRandom(seed: 2))
        let ab = try a.sharedSecretX(with: b.publicKey), ba = try b.sharedSecretX(with: a.publicKey)
        XCTAssertTrue(ab.constantTimeEquals(ba))
    }

    func testPrivateKeyRangeChecks() {
        XCTAssertThrowsError(try Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32)))
        XCTAssertThrowsError(try Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 0xff, count: 32)))
        XCTAssertThrowsError(try Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31)))
        XCTAssertThrowsError(try Secp256k1.XOnlyPublicKey(rawRepresentation: [UInt8](repeating: 0xff, count: 32)))
    }

    func testSeededRandomReplaysAndUniformIsInRange() {
        XCTAssertEqual(SeededRandom(seed: 9).bytes(40), SeededRandom(seed: 9).bytes(40))
        XCTAssertNotEqual(SeededRandom(seed: 9).bytes(40), SeededRandom(seed: 10).bytes(40))
        let r = SeededRandom(seed: 3)
        var seen = Set<UInt32>()
        for _ in 0..<2000 { let v = r.uniform(62); XCTAssertLessThan(v, 62); seen.insert(v) }
        XCTAssertEqual(seen.count, 62)
    }

    func testBase64StrictAndLenient() {
        let bytes: [UInt8] = [0xfb, 0xff, 0x01]
        XCTAssertEqual(Base64.encode(bytes), "+/8B")
        XCTAssertEqual(Base64.encode(bytes, alphabet: .urlSafe, padded: false), "-_8B")
        XCTAssertEqual(Base64.encode([0x66, 0x6f]), "Zm8=")
        XCTAssertEqual(Base64.decode("Zm8="), [0x66, 0x6f])
        XCTAssertNil(Base64.decode("Zm8"))            // strict: padding required
        XCTAssertNil(Base64.decode("Zm9="))           // non-zero trailing bits
        XCTAssertNil(Base64.decode("-_8B"))           // wrong alphabet
        XCTAssertEqual(Base64.decodeLenient(" -_8B\n"), bytes)
        XCTAssertEqual(Base64.decodeLenient("Zm8"), [0x66, 0x6f])
        for n in 0..<40 {
            let b = SeededRandom(seed: UInt64(n)).bytes(n)
            XCTAssertEqual(Base64.decode(Base64.encode(b)), b)
            XCTAssertEqual(Base64.decode(Base64.encode(b, alphabet: .urlSafe, padded: false), alphabet: .urlSafe, padded: false), b)
        }
    }
}
