import InviteKitCrypto

/// The kind-445 content encryption of MIP-03 as MDK 0.8.0 does it: ChaCha20-Poly1305 (RFC 8439)
/// under the epoch's `MLS-Exporter("marmot", "group-event", 32)` key, a fresh random 12-byte nonce,
/// no associated data; content = standard padded base64 of `nonce || ciphertext || tag`.
package enum GroupEventCipher {
    package static let nonceByteCount = ChaChaPoly.nonceByteCount
    package static let tagByteCount = ChaChaPoly.tagByteCount
    /// The shortest valid decoded content: a nonce and a tag around an empty plaintext.
    package static let minimumSealedByteCount = nonceByteCount + tagByteCount

    /// Seals `plaintext` (a serialized MLSMessage) for the epoch whose group-event key is `key`
    /// (``MarmotExporter/groupEventKey(exporterSecret:)``).
    package static func seal(_ plaintext: [UInt8], key: SecureBytes, rng: RandomSource = SystemRandom()) throws -> String {
        guard key.count == MarmotProfile.groupEventKeyLength else { throw MLSError(.invalidKey, "group-event key must be 32 bytes") }
        let nonce = rng.bytes(nonceByteCount)
        let sealed: [UInt8]
        do { sealed = try ChaChaPoly.seal(plaintext, key: key, nonce: nonce, aad: [UInt8]()) } catch {
            throw MLSError(.invalidKey, "ChaCha20-Poly1305 refused the key")
        }
        return Base64.encode(nonce + sealed)
    }

    /// Opens kind-445 `content` with `key`. Fails with `invalid_event` for content that is not
    /// strict padded base64 or is shorter than a nonce and a tag, and `decryption_failed` when the
    /// tag does not verify (wrong epoch, wrong group or tampering).
    package static func open(_ content: String, key: SecureBytes) throws -> [UInt8] {
        guard let bytes = Base64.decode(content) else { throw MLSError(.invalidEvent, "kind-445 content is not padded base64") }
        return try open(bytes: bytes, key: key)
    }

    /// Opens already-decoded kind-445 content; see ``open(_:key:)``.
    package static func open(bytes: [UInt8], key: SecureBytes) throws -> [UInt8] {
        guard bytes.count >= minimumSealedByteCount else {
            throw MLSError(.invalidEvent, "kind-445 content is \(bytes.count) bytes, under the \(minimumSealedByteCount) of a nonce and a tag")
        }
        guard key.count == MarmotProfile.groupEventKeyLength else { throw MLSError(.invalidKey, "group-event key must be 32 bytes") }
        let nonce = Array(bytes[0..<nonceByteCount])
        do {
            return try ChaChaPoly.open(bytes[nonceByteCount...], key: key, nonce: nonce, aad: [UInt8]())
        } catch {
            throw MLSError(.decryptionFailed, "kind-445 content does not open under this epoch's key")
        }
    }
}
