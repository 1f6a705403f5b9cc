import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS
import MLSFixture

// KeyPackage TLS (RFC 9420 §10), bare and inside an MLSMessage (§6).
// Invariants: the encoding is canonical (minimal varints), so anything that parses
// re-serializes to exactly the input bytes; the KeyPackageRef is a function of those bytes;
// a KeyPackage that verify()s meets §10.1 on its own (32-byte distinct X25519 keys, the suite in
// its capabilities, both signatures valid), and stops verifying when one bit of its signature,
// init_key or leaf signature key changes (no forged KeyPackage is accepted).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    if let kp = try? KeyPackage(tlsSerialized: bytes) {
        invariant(kp.tlsSerialized == bytes, "KeyPackage encoding is not canonical")
        check(kp)
    }
    if let msg = try? MLSMessage(tlsSerialized: bytes) {
        invariant(msg.tlsSerialized == bytes, "MLSMessage encoding is not canonical")
        if let kp = try? msg.keyPackage { check(kp) }
    }
    return 0
}

func check(_ kp: KeyPackage) {
    invariant((try? KeyPackage(tlsSerialized: kp.tlsSerialized))?.reference == kp.reference, "KeyPackageRef unstable")
    guard (try? kp.verify()) != nil else { return }
    invariant(kp.version == .mls10 && kp.cipherSuite.isSupported, "version/suite")
    invariant(kp.initKey.count == 32 && kp.leafNode.encryptionKey.count == 32 && kp.initKey != kp.leafNode.encryptionKey, "init/encryption keys")
    invariant(kp.leafNode.capabilities.cipherSuites.contains(kp.cipherSuite.rawValue), "capabilities lack the suite")
    invariant(MLSCrypto.verifyWithLabel(publicKey: kp.leafNode.signatureKey, label: "KeyPackageTBS", content: kp.tbs, signature: kp.signature),
              "verify() passed without a valid KeyPackage signature")
    var t = kp
    t.signature[t.signature.count - 1] ^= 0x01
    invariant(throwsError { try t.verify() }, "flipped KeyPackage signature accepted")
    t = kp
    t.initKey[0] ^= 0x01
    invariant(throwsError { try t.verify() }, "changed init_key accepted")
    t = kp
    t.leafNode.signatureKey[0] ^= 0x01
    invariant(throwsError { try t.verify() }, "changed signature key accepted")
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    emitSeedsIfAsked {
        let kp = MLSFixture.authorBundle.keyPackage
        return [("fixture-keypackage", kp.tlsSerialized), ("fixture-mlsmessage", MLSMessage(keyPackage: kp).tlsSerialized)]
    }
    return 0
}
