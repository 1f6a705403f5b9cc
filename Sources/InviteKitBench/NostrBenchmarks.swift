import Foundation
import InviteKit
import InviteKitNostr

/// Foundation and Nostr-layer operations.
enum NostrBenchmarks {
    static func cases() throws -> [BenchCase] {
        let alice = Secp256k1.PrivateKey(), bob = Secp256k1.PrivateKey()
        let msg = [UInt8](repeating: 7, count: 32)
        let sig = try alice.schnorrSignature(for: msg)
        let ck = try NIP44.ConversationKey(privateKey: alice, publicKey: bob.publicKey)
        let rumor = EventTemplate(kind: GiftWrap.chatMessageKind, content: String(repeating: "a", count: 200), tags: [["p", bob.publicKey.hex]]).rumor(pubkey: alice.publicKey)
        let wrap = try GiftWrap.wrap(rumor, from: alice, to: bob.publicKey)
        let batch = try (0..<1000).map { _ in try GiftWrap.wrap(rumor, from: alice, to: bob.publicKey) }

        var cases: [BenchCase] = [
            BenchCase("keygen", floor: "c.keygen") { _ = Secp256k1.PrivateKey() },
            BenchCase("schnorr.sign", floor: "c.schnorr.sign") { _ = try alice.schnorrSignature(for: msg) },
            BenchCase("schnorr.verify", floor: "c.schnorr.verify") { precondition(alice.publicKey.isValidSchnorrSignature(sig, for: msg)) },
            BenchCase("ecdh", floor: "c.ecdh") { _ = try alice.sharedSecretX(with: bob.publicKey) },
        ]
        for (label, size) in [("16B", 16), ("1KiB", 1024), ("64KiB", 65536), ("1MiB", 1 << 20)] {
            let plaintext = [UInt8](repeating: 0x61, count: size)
            let floor = size == 16 ? "c.nip44.16B.cached" : size == 1 << 20 ? "c.nip44.1MiB.cached" : nil
            cases.append(BenchCase("nip44.\(label).cached", floor: floor, bytesPerOp: size) {
                let p = try NIP44.encrypt(plaintext, conversationKey: ck)
                _ = try NIP44.decrypt(p, conversationKey: ck)
            })
            cases.append(BenchCase("nip44.\(label).uncached", bytesPerOp: size) {
                let k = try NIP44.ConversationKey(privateKey: alice, publicKey: bob.publicKey)
                let p = try NIP44.encrypt(plaintext, conversationKey: k)
                _ = try NIP44.decrypt(p, conversationKey: try NIP44.ConversationKey(privateKey: bob, publicKey: alice.publicKey))
            })
        }
        // The CLI's path for the largest payload (issue 13: decrypt was 8× slower than encrypt).
        // `…cli-foundation-trim` is the old input handling, kept as the reference point.
        let big = [UInt8](repeating: 0x61, count: NIP44.maxPlaintextBytes)
        let bigPayload = Array((try NIP44.encrypt(big, conversationKey: ck) + "\n").utf8)
        cases += [
            BenchCase("nip44.encrypt.16MiB.cli", bytesPerOp: big.count) { _ = try NIP44.encrypt(big, conversationKey: ck) },
            BenchCase("nip44.decrypt.16MiB.cli", bytesPerOp: big.count) {
                _ = try NIP44.decrypt(NIP44.payloadText(bigPayload), conversationKey: ck)
            },
            BenchCase("nip44.decrypt.16MiB.cli-foundation-trim", bytesPerOp: big.count) {
                let text = String(decoding: bigPayload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                _ = try NIP44.decrypt(text, conversationKey: ck)
            },
        ]
        let mib = [UInt8](repeating: 0x61, count: 1 << 20)
        let mibB64 = Base64.encode(mib)
        let key32 = [UInt8](repeating: 1, count: 32)
        cases += [
            BenchCase("base64.encode.1MiB", bytesPerOp: 1 << 20) { _ = Base64.encode(mib) },
            BenchCase("base64.decode.1MiB", bytesPerOp: 1 << 20) { _ = Base64.decode(mibB64) },
            BenchCase("chacha20.1MiB", bytesPerOp: 1 << 20) { _ = try ChaCha20.xor(mib, key: key32, nonce: [UInt8](repeating: 0, count: 12)) },
            BenchCase("hmac.1MiB", bytesPerOp: 1 << 20) { _ = HMACSHA256.authenticate(mib, key: key32) },
            BenchCase("wrap", floor: "c.wrap") { _ = try GiftWrap.wrap(rumor, from: alice, to: bob.publicKey) },
            BenchCase("unwrap", floor: "c.unwrap") { _ = try GiftWrap.unwrap(wrap, recipient: bob) },
            BenchCase("unwrap.batch1000") {
                let r = GiftWrap.unwrapBatch(batch, recipient: bob)
                precondition(r.successCount == 1000)
            },
        ]
        return cases
    }
}
