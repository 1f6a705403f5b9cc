import FuzzSupport
import InviteKitCrypto
import InviteKitNostr

// Bech32 (BIP-173) and NIP-19 entities.
// Invariants:
//  - Bech32: a decoded string re-encodes to exactly its lowercase form (one encoding per value)
//    and decodes again to the same (hrp, data);
//  - NIP-19: decode(encode(decode(s))) == decode(s) field by field; for the bare-key forms
//    (npub, nsec, note) encode(decode(s)) is s lowercased, without a `nostr:` prefix;
//  - every decoded npub is a valid curve point; every nsec holds exactly 32 bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let s = FuzzInput(data, size).string

    if let (hrp, bytes) = try? Bech32.decode(s) {
        let encoded = Bech32.encode(hrp: hrp, data: bytes)
        invariant(encoded == s.lowercased(), "bech32 re-encoding differs from the input")
        let again = try? Bech32.decode(encoded)
        invariant(again?.hrp == hrp && again?.data == bytes, "bech32 round trip changed the value")
    }

    guard let entity = try? NIP19.decode(s) else { return 0 }
    let encoded = NIP19.encode(entity)
    guard let again = try? NIP19.decode(encoded) else { invariant(false, "NIP-19 re-encoding does not decode"); return 0 }
    invariant(key(entity) == key(again), "NIP-19 round trip changed the entity")
    let bare = s.hasPrefix("nostr:") ? String(s.dropFirst(6)) : s
    switch entity {
    case .npub(let k):
        invariant((try? Secp256k1.XOnlyPublicKey(rawRepresentation: k.rawRepresentation)) != nil, "npub not on the curve")
        invariant(encoded == bare.lowercased(), "npub re-encoding differs")
    case .nsec(let secret):
        invariant(secret.count == 32, "nsec length")
        invariant(encoded == bare.lowercased(), "nsec re-encoding differs")
    case .note:
        invariant(encoded == bare.lowercased(), "note re-encoding differs")
    default: break
    }
    return 0
}

/// A comparable rendering of an entity (NIP19Entity holds SecureBytes, so it is not Hashable).
private func key(_ e: NIP19Entity) -> String {
    switch e {
    case .npub(let k): return "npub " + k.hex
    case .nsec(let s): return "nsec " + Hex.encode(s.exportBytes())
    case .note(let id): return "note " + Hex.encode(id)
    case .nprofile(let p): return "nprofile \(Hex.encode(p.pubkey)) \(p.relays)"
    case .nevent(let e): return "nevent \(Hex.encode(e.id)) \(e.relays) \(e.author.map { Hex.encode($0) } ?? "-") \(String(describing: e.kind))"
    case .naddr(let a): return "naddr \(a.identifier.debugDescription) \(a.relays) \(Hex.encode(a.author)) \(a.kind)"
    }
}
