import InviteKitCrypto

extension NIP44 {
    /// The long-lived key two parties share ([NIP-44 §Encryption, step 1](https://github.com/nostr-protocol/nips/blob/master/44.md)):
    /// HKDF-Extract(salt "nip44-v2", IKM = unhashed ECDH x). Derive it once per peer and reuse it.
    public struct ConversationKey: Sendable {
        let key: SecureBytes
        /// HMAC keyed with the conversation key: every message's HKDF-Expand starts from it.
        /// Its hash states are equivalent to the key, so they live in wiped storage too.
        private let keyedState: KeyedHMAC
        var expander: HMACSHA256 { keyedState.mac }

        public init(privateKey: Secp256k1.PrivateKey, publicKey: Secp256k1.XOnlyPublicKey) throws(NostrError) {
            let shared: SecureBytes
            do { shared = try privateKey.sharedSecretX(with: publicKey) } catch {
                throw NostrError(.invalidConversationKey, "ECDH failed")
            }
            self.init(secret: HKDF.extract(salt: NIP44.salt, ikm: shared))
        }

        /// From 32 raw bytes (test vectors; an exported key).
        public init<B: ContiguousBytes>(rawRepresentation: B) throws(NostrError) {
            let count = rawRepresentation.withUnsafeBytes { $0.count }
            guard count == 32 else { throw NostrError(.invalidConversationKey, "conversation key must be 32 bytes") }
            self.init(secret: rawRepresentation.withUnsafeBytes { SecureBytes(copying: $0) })
        }

        init(secret: SecureBytes) {
            key = secret
            keyedState = KeyedHMAC(HMACSHA256(key: secret))
        }

        /// The raw key, for an explicit export or a vector check only.
        public var rawRepresentation: SecureBytes { key }

        /// ChaCha key 32 | ChaCha nonce 12 | HMAC key 32 = HKDF-Expand(conv key, info = nonce, 76).
        public func messageKeys(nonce: [UInt8]) -> MessageKeys {
            MessageKeys(material: HKDF.expand(keyed: expander, info: nonce, count: 76))
        }

        /// The same 76 bytes in a stack buffer that is wiped when `body` returns: the per-message
        /// hot path allocates nothing for keys.
        func withMessageKeys<R>(nonce: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try withUnsafeTemporaryAllocation(byteCount: 76, alignment: 16) { m in
                defer { m.initializeMemory(as: UInt8.self, repeating: 0) }
                HKDF.expand(keyed: expander, info: nonce, into: m)
                return try body(UnsafeRawBufferPointer(m))
            }
        }
    }

    /// Per-message keys (76 bytes of HKDF output, sliced).
    public struct MessageKeys: Sendable {
        let material: SecureBytes
        public var chachaKey: SecureBytes { material.withUnsafeBytes { SecureBytes(copying: $0[0..<32]) } }
        public var chachaNonce: [UInt8] { material.withUnsafeBytes { Array($0[32..<44]) } }
        public var hmacKey: SecureBytes { material.withUnsafeBytes { SecureBytes(copying: $0[44..<76]) } }
    }
}

extension NIP44.ConversationKey: RedactedDescription {}
extension NIP44.MessageKeys: RedactedDescription {}
