import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS
import MLSFixture

// Welcomes (group.md §Welcome) for Bob's KeyPackage in the fixture group. Modes (first byte % 2):
//  0 TLS: the rest is a Welcome; it must round-trip byte for byte, then Bob tries to join.
//  1 GroupInfo: the rest is a GroupInfo plaintext; the harness encrypts it under the welcome
//    key of the fixture's genuine joiner secret (the real HPKE-sealed joiner secret is kept),
//    so the roster, signature and confirmation-tag checks see hostile GroupInfos.
// Invariant when a join succeeds: it is the fixture's group (same group id, epoch and roster),
// with Bob at his own KeyPackage keys: without Alice's GroupInfo signature nobody can place Bob
// in another group or epoch. (`@testable` reaches the internal welcome-key derivation.)
let group = MLSFixture.group
let bundle = group.bobBundle
let genuine = group.welcome
let aead = try! genuine.cipherSuite.hpke().aead
let joinerSecret = SecureBytes(copying: try! MLSCrypto.decryptWithLabel(
    suite: genuine.cipherSuite, privateKey: bundle.initPrivateKey, label: MLSFixture.welcomeLabel,
    context: genuine.keyPackageRef, ciphertext: genuine.encryptedJoinerSecret))
let welcomeKey = LegacyEpochSecrets.welcomeKeyAndNonce(joinerSecret: joinerSecret, aead: aead)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 2)
    let welcome: LegacyWelcome
    if mode == 0 {
        guard let w = try? LegacyWelcome(tlsSerialized: rest) else { return 0 }
        invariant(w.tlsSerialized == rest, "Welcome encoding is not canonical")
        welcome = w
    } else {
        guard let sealed = try? aead.seal(rest, key: welcomeKey.key, nonce: welcomeKey.nonce, aad: []) else { return 0 }
        welcome = LegacyWelcome(cipherSuite: genuine.cipherSuite, keyPackageRef: genuine.keyPackageRef,
                          encryptedJoinerSecret: genuine.encryptedJoinerSecret, encryptedGroupInfo: sealed)
    }
    guard let state = try? GroupState.join(welcome: welcome, bundle: bundle) else { return 0 }
    let real = group.bob.state
    invariant(state.groupID == real.groupID && state.nostrGroupID == real.nostrGroupID, "joined another group (forged GroupInfo)")
    invariant(state.epoch == real.epoch && state.members == real.members, "joined at a forged epoch or roster")
    invariant(state.ownMember.encryptionKey == bundle.keyPackage.leafNode.encryptionKey, "own leaf is not the KeyPackage's")
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    emitSeedsIfAsked {
        let info = try! aead.open(genuine.encryptedGroupInfo, key: welcomeKey.key, nonce: welcomeKey.nonce, aad: [])
        return [("fixture-welcome", [0] + genuine.tlsSerialized), ("fixture-groupinfo", [1] + info)]
    }
    return 0
}
