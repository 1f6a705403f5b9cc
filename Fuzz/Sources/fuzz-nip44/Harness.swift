import FuzzSupport
import InviteKitCrypto
import InviteKitNostr

// NIP-44 v2 payloads under a fixed conversation key. Modes (first byte % 3):
//  0 raw: the rest is a payload string. If it decrypts, re-encrypting the plaintext with the
//    payload's own nonce gives the same bytes (the MAC binds everything, padding is canonical).
//  1 round trip: the rest is nonce(32) || plaintext. decrypt(encrypt(p)) == p; with one bit of
//    the payload flipped (position from the input) decryption must fail: no forgery passes the MAC.
//  2 framed: the rest is nonce(32) || an arbitrary "padded plaintext" region, which the harness
//    encrypts and MACs correctly, so unpad() sees hostile lengths behind a valid MAC. Success
//    means the region is exactly prefix + calc_padded_len(n) and the plaintext is its slice.
let key = FixedKeys.conversationKey

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let (mode, rest) = input.mode(of: 3)
    switch mode {
    case 0:
        let payload = String(decoding: rest, as: UTF8.self)
        guard let plain = try? NIP44.decrypt(payload, conversationKey: key) else { return 0 }
        invariant(!plain.isEmpty && plain.count <= NIP44.maxPlaintextBytes, "plaintext length out of range")
        let raw = Base64.decode(payload)!
        let again = try? NIP44.encrypt(plain, conversationKey: key, nonce: Array(raw[1..<33]))
        invariant(again.flatMap { Base64.decode($0) } == raw, "decrypted payload does not re-encrypt to itself")
    case 1:
        guard rest.count > 32 else { return 0 }
        let nonce = Array(rest[0..<32]), plain = Array(rest[32...])
        guard let payload = try? NIP44.encrypt(plain, conversationKey: key, nonce: nonce) else { return 0 }
        invariant((try? NIP44.decrypt(payload, conversationKey: key)) == plain, "round trip changed the plaintext")
        var raw = Base64.decode(payload)!
        let bit = (Int(rest[0]) << 8 | Int(rest[1])) % (raw.count * 8)
        raw[bit / 8] ^= 1 << (bit % 8)
        invariant(throwsError { try NIP44.decrypt(Base64.encode(raw), conversationKey: key) }, "bit-flipped payload decrypted")
    default:
        guard rest.count >= 32 else { return 0 }
        let nonce = Array(rest[0..<32]), region = Array(rest[32...])
        let keys = key.messageKeys(nonce: nonce)
        guard let ct = try? ChaCha20.xor(region, key: keys.chachaKey, nonce: keys.chachaNonce) else { return 0 }
        let body = [NIP44.version] + nonce + ct
        let payload = Base64.encode(body + HMACSHA256.authenticate(Array(body[1...]), key: keys.hmacKey))
        guard let plain = try? NIP44.decrypt(payload, conversationKey: key) else { return 0 }
        let prefix = plain.count < 65536 ? 2 : 6
        invariant(region.count == prefix + NIP44.paddedLength(plain.count), "accepted padding of the wrong size")
        invariant(Array(region[prefix..<(prefix + plain.count)]) == plain, "plaintext is not the prefixed slice")
    }
    return 0
}
