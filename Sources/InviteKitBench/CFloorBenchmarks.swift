internal import CSecp256k1
internal import CSodium
import Foundation

/// The same work as the Swift cases, through libsecp256k1 and libsodium called directly: the
/// floor each Swift figure is compared with.
package enum CFloorBenchmarks {
    nonisolated(unsafe) static let ctx: OpaquePointer = {
        _ = sodium_init()
        let c = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE))!
        var seed = [UInt8](repeating: 0, count: 32); randombytes_buf(&seed, 32)
        _ = secp256k1_context_randomize(c, seed)
        return c
    }()

    package static func cases() -> [BenchCase] {
        var sk = [UInt8](repeating: 0, count: 32)
        randombytes_buf(&sk, 32); sk[0] &= 0x7f
        var kp = secp256k1_keypair()
        _ = secp256k1_keypair_create(ctx, &kp, sk)
        var xonly = secp256k1_xonly_pubkey()
        _ = secp256k1_keypair_xonly_pub(ctx, &xonly, nil, &kp)
        var xbytes = [UInt8](repeating: 0, count: 32)
        _ = secp256k1_xonly_pubkey_serialize(ctx, &xbytes, &xonly)
        var msg = [UInt8](repeating: 7, count: 32)
        var sig = [UInt8](repeating: 0, count: 64)
        _ = secp256k1_schnorrsig_sign32(ctx, &sig, msg, &kp, nil)
        let sigCopy = sig
        var rsig = secp256k1_ecdsa_recoverable_signature()
        _ = secp256k1_ecdsa_sign_recoverable(ctx, &rsig, msg, sk, nil, nil)

        return [
            BenchCase("c.keygen") {
                var k = secp256k1_keypair(); var s = [UInt8](repeating: 0, count: 32)
                randombytes_buf(&s, 32); s[0] &= 0x7f
                _ = secp256k1_keypair_create(ctx, &k, s)
            },
            BenchCase("c.schnorr.sign") {
                var aux = [UInt8](repeating: 0, count: 32); randombytes_buf(&aux, 32)
                _ = secp256k1_schnorrsig_sign32(ctx, &sig, msg, &kp, aux)
            },
            BenchCase("c.schnorr.verify") {
                precondition(secp256k1_schnorrsig_verify(ctx, sigCopy, msg, 32, &xonly) == 1)
            },
            BenchCase("c.ecdh") { _ = ecdh(sk, xbytes) },
            BenchCase("c.ecdsa.sign") {
                var rsig = secp256k1_ecdsa_recoverable_signature()
                _ = secp256k1_ecdsa_sign_recoverable(ctx, &rsig, msg, sk, nil, nil)
            },
            BenchCase("c.ecdsa.recover") {
                var pub = secp256k1_pubkey()
                _ = secp256k1_ecdsa_recover(ctx, &pub, &rsig, msg)
            },
            BenchCase("c.nip44.16B.cached") { nip44Floor(length: 16) },
            BenchCase("c.nip44.1MiB.cached") { nip44Floor(length: 1 << 20) },
            BenchCase("c.wrap") { wrapFloor(senderKeypair: &kp, senderSecret: sk, recipient: xbytes, bodyLength: 300) },
            BenchCase("c.unwrap") { unwrapFloor(recipientSecret: sk, peer: xbytes, sig: sigCopy, msg: &msg, xonly: &xonly) },
            BenchCase(ed25519FloorName) { ed25519Floor.verifyAll() },
        ]
    }

    /// A 1,000-member Welcome's floor: one Ed25519 verification per leaf (RFC 9420 §12.4.3.1),
    /// on every core as the engine spreads them; libsodium has no batch verification.
    static var ed25519FloorName: String { "c.ed25519.verify 1000 on \(ProcessInfo.processInfo.activeProcessorCount) cores" }

    /// 1,000 distinct keys, each with a signature over a leaf-sized message.
    struct Ed25519Batch: Sendable {
        var keys: [[UInt8]] = [], messages: [[UInt8]] = [], signatures: [[UInt8]] = []

        init(count: Int) {
            for _ in 0..<count {
                var pk = [UInt8](repeating: 0, count: 32), sk = [UInt8](repeating: 0, count: 64)
                _ = crypto_sign_keypair(&pk, &sk)
                var m = [UInt8](repeating: 0, count: 250); randombytes_buf(&m, 250)
                var sig = [UInt8](repeating: 0, count: 64)
                _ = crypto_sign_detached(&sig, nil, m, UInt64(m.count), sk)
                keys.append(pk); messages.append(m); signatures.append(sig)
            }
        }

        func verifyAll() {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            DispatchQueue.concurrentPerform(iterations: cores) { c in
                for i in stride(from: c, to: keys.count, by: cores) {
                    precondition(crypto_sign_verify_detached(signatures[i], messages[i], UInt64(messages[i].count), keys[i]) == 0)
                }
            }
        }
    }
    static let ed25519Floor: Ed25519Batch = { _ = sodium_init(); return Ed25519Batch(count: 1000) }()

    /// Raw-x ECDH: parse the even-y point, multiply.
    static func ecdh(_ secret: [UInt8], _ peerX: [UInt8]) -> [UInt8] {
        var full = secp256k1_pubkey()
        _ = secp256k1_ec_pubkey_parse(ctx, &full, [0x02] + peerX, 33)
        var out = [UInt8](repeating: 0, count: 32)
        _ = secp256k1_ecdh(ctx, &out, &full, secret, invitekit_ecdh_copy_x_fn(), nil)
        return out
    }

    /// HKDF-expand (76 bytes), ChaCha20, HMAC over the ciphertext: the symmetric half of NIP-44,
    /// encrypt and decrypt.
    static func nip44Floor(length: Int) {
        let key = [UInt8](repeating: 3, count: 32), nonce = [UInt8](repeating: 4, count: 32)
        var buf = [UInt8](repeating: 0, count: max(32, length) + 2)
        for _ in 0..<2 {
            var okm = [UInt8](repeating: 0, count: 96)
            var t = [UInt8]()
            for i in 1...3 {
                var st = crypto_auth_hmacsha256_state()
                crypto_auth_hmacsha256_init(&st, key, 32)
                crypto_auth_hmacsha256_update(&st, t, UInt64(t.count))
                crypto_auth_hmacsha256_update(&st, nonce, 32)
                var c = UInt8(i); crypto_auth_hmacsha256_update(&st, &c, 1)
                t = [UInt8](repeating: 0, count: 32)
                crypto_auth_hmacsha256_final(&st, &t)
                okm.replaceSubrange((i - 1) * 32..<i * 32, with: t)
            }
            _ = crypto_stream_chacha20_ietf_xor(&buf, buf, UInt64(buf.count), Array(okm[32..<44]), okm)
            var mac = [UInt8](repeating: 0, count: 32)
            crypto_auth_hmacsha256(&mac, buf, UInt64(buf.count), Array(okm[44..<76]))
        }
    }

    static func hkdfExtract(_ ikm: [UInt8]) -> [UInt8] {
        var prk = [UInt8](repeating: 0, count: 32)
        var st = crypto_auth_hmacsha256_state()
        let salt = Array("nip44-v2".utf8)
        crypto_auth_hmacsha256_init(&st, salt, salt.count)
        crypto_auth_hmacsha256_update(&st, ikm, 32)
        crypto_auth_hmacsha256_final(&st, &prk)
        return prk
    }

    /// A gift wrap's cryptography: one-time keypair, two ECDH + HKDF-extract, two NIP-44
    /// symmetric passes, two event-id hashes and two Schnorr signatures.
    static func wrapFloor(senderKeypair: inout secp256k1_keypair, senderSecret: [UInt8], recipient: [UInt8], bodyLength: Int) {
        var eph = [UInt8](repeating: 0, count: 32); randombytes_buf(&eph, 32); eph[0] &= 0x7f
        var ekp = secp256k1_keypair()
        _ = secp256k1_keypair_create(ctx, &ekp, eph)
        for (secret, length) in [(senderSecret, bodyLength), (eph, bodyLength * 2)] {
            _ = hkdfExtract(ecdh(secret, recipient))
            nip44FloorOneWay(length: length)
        }
        var id = [UInt8](repeating: 0, count: 32), sig = [UInt8](repeating: 0, count: 64), aux = [UInt8](repeating: 0, count: 32)
        for kp in [senderKeypair, ekp] {
            var k = kp
            let body = [UInt8](repeating: 0x41, count: bodyLength * 2)
            crypto_hash_sha256(&id, body, UInt64(body.count))
            randombytes_buf(&aux, 32)
            _ = secp256k1_schnorrsig_sign32(ctx, &sig, id, &k, aux)
        }
    }

    /// An unwrap's cryptography: two ECDH + HKDF-extract, two NIP-44 passes, two id hashes,
    /// two Schnorr verifications.
    static func unwrapFloor(recipientSecret: [UInt8], peer: [UInt8], sig: [UInt8], msg: inout [UInt8], xonly: inout secp256k1_xonly_pubkey) {
        for length in [600, 300] {
            _ = hkdfExtract(ecdh(recipientSecret, peer))
            nip44FloorOneWay(length: length)
            let body = [UInt8](repeating: 0x41, count: length)
            crypto_hash_sha256(&msg, body, UInt64(body.count))
            _ = secp256k1_schnorrsig_verify(ctx, sig, msg, 32, &xonly)
        }
    }

    static func nip44FloorOneWay(length: Int) {
        let key = [UInt8](repeating: 3, count: 32), nonce = [UInt8](repeating: 4, count: 32)
        var okm = [UInt8](repeating: 0, count: 96)
        crypto_auth_hmacsha256(&okm, nonce, 32, key)
        var buf = [UInt8](repeating: 0, count: length + 2)
        _ = crypto_stream_chacha20_ietf_xor(&buf, buf, UInt64(buf.count), Array(okm[0..<12]), key)
        var mac = [UInt8](repeating: 0, count: 32)
        crypto_auth_hmacsha256(&mac, buf, UInt64(buf.count), key)
    }
}
