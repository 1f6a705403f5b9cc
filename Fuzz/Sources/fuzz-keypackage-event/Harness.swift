import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS
import InviteKitNostr
import MLSFixture

// KeyPackage events (kind 30443 / legacy 443) through KeyPackageValidator.validate. Modes
// (first byte % 2):
//  0 raw: the rest is the event JSON.
//  1 signed: the rest is the TLS content; the harness publishes it as a kind-30443 event signed
//    by FixedKeys.author with MDK's tags (the `i` tag computed when the bytes parse), so the
//    validator's checks after the event signature see hostile KeyPackages.
// Invariants when validate() succeeds: the event verifies; the KeyPackage verifies; its
// credential is the event's author; the suite is 0x0001; the Lifetime covers `now` within the
// skew; the returned ref is the KeyPackage's. In mode 1, a KeyPackage that verifies, names the
// author, uses suite 0x0001 and is current must be accepted (no false rejection).
let now = MLSFixture.now
let author = FixedKeys.author

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 2)
    let event: NostrEvent
    var parsed: KeyPackage?
    if mode == 0 {
        guard let e = try? NostrEvent(json: rest) else { return 0 }
        event = e
    } else {
        if let kp = try? KeyPackage(tlsSerialized: rest) {
            parsed = kp
        } else if let m = try? MLSMessage(tlsSerialized: rest) {
            parsed = try? m.keyPackage
        }
        let tags = parsed.map { KeyPackageEvent.tags(for: $0, d: String(repeating: "ab", count: 32), relays: ["wss://relay.example"]) }
            ?? [["encoding", "base64"]]
        event = try! EventTemplate(kind: KeyPackageEvent.kind, content: Base64.encode(rest), tags: tags, createdAt: now)
            .signed(by: author, using: ZeroRandom())
    }
    let result = Result { try KeyPackageValidator.validate(event, now: now) }
    if let kp = parsed, (try? kp.verify()) != nil, kp.cipherSuite == .x25519Aes128GcmSha256Ed25519,
       kp.leafNode.credential.isBasic, kp.leafNode.credential.identity == author.publicKey.rawRepresentation,
       let life = kp.leafNode.lifetime, covers(life, UInt64(now), skew: KeyPackageEvent.defaultClockSkew) {
        invariant((try? result.get()) != nil, "valid KeyPackage event rejected: \(result)")
    }
    guard case .success(let v) = result else { return 0 }
    invariant((try? event.verify()) != nil, "unverified event accepted")
    invariant((try? v.keyPackage.verify()) != nil, "unverified KeyPackage accepted")
    invariant(Hex.encode(v.keyPackage.leafNode.credential.identity) == event.pubkey, "credential is not the author")
    invariant(v.keyPackage.cipherSuite == .x25519Aes128GcmSha256Ed25519, "suite")
    invariant(v.keyPackage.leafNode.lifetime.map { covers($0, UInt64(now), skew: KeyPackageEvent.defaultClockSkew) } == true, "expired accepted")
    invariant(v.reference == v.keyPackage.reference, "reference")
    var tampered = event
    tampered.pubkey = FixedKeys.stranger.publicKey.hex
    invariant(throwsError { try KeyPackageValidator.validate(tampered, now: now) }, "re-attributed event accepted")
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    emitSeedsIfAsked {
        let kp = MLSFixture.authorBundle.keyPackage
        let event = try! KeyPackageEvent.template(for: kp, relays: ["wss://relay.example"], createdAt: now, rng: SeededRandom(seed: 1))
            .signed(by: author, using: ZeroRandom())
        return [("fixture-event", [0] + event.jsonBytes), ("fixture-tls", [1] + kp.tlsSerialized),
                ("fixture-mlsmessage", [1] + MLSMessage(keyPackage: kp).tlsSerialized)]
    }
    return 0
}

/// The oracle's own reading of the lifetime rule (PROTOCOL §4.4): `now` within
/// `[not_before - skew, not_after + skew]`, without overflow. Kept apart from the validator's code
/// so the invariant does not check the validator against itself.
private func covers(_ life: Lifetime, _ now: UInt64, skew: UInt64) -> Bool {
    let lo = life.notBefore > skew ? life.notBefore - skew : 0
    let hi = life.notAfter > UInt64.max - skew ? UInt64.max : life.notAfter + skew
    return now >= lo && now <= hi
}
