import InviteKitCrypto

/// The encrypted conversation id carried in ``InvitePayload/conversationToken`` (PROTOCOL.md §3.4).
///
/// key = HKDF-SHA256(IKM = the creator's 32-byte secret key, salt `"ConvosInviteV1"`,
/// info `"inbox:" + creatorId`, 32 bytes); ChaCha20-Poly1305 (RFC 8439) with a random 12-byte
/// nonce and AAD = creatorId (UTF-8). Layout `0x01 | nonce | ciphertext | tag`. Plaintext is
/// `0x01 | 16 UUID bytes` or `0x02 | length | UTF-8` where length is one byte for 1...255 and
/// `0x00 | u16 BE` above. Only the creator's secret key opens it, so a joiner learns nothing of
/// the group id.
///
/// For InviteKit invites the creator id is ``creatorId(for:)``: the lowercase hex of the
/// x-only public key, the same text-for-bytes relation Convos has between an XMTP inbox id
/// (64 hex characters) and the 32 bytes in `creator_inbox_id`.
public enum ConversationToken {
    /// The token layout version (first byte).
    public static let version: UInt8 = 0x01
    /// HKDF salt.
    public static let salt = Array("ConvosInviteV1".utf8)
    static let uuidForm: UInt8 = 0x01
    static let stringForm: UInt8 = 0x02
    /// Longest conversation id in string form (the u16 length field).
    public static let maxStringLength = 0xFFFF

    /// The creator id string for an InviteKit creator.
    public static func creatorId(for key: Secp256k1.XOnlyPublicKey) -> String { key.hex }

    /// Encrypts `conversationID` with a fresh nonce from `rng`.
    public static func seal(
        conversationID: String, creatorKey: Secp256k1.PrivateKey, creatorId: String,
        using rng: RandomSource = SystemRandom()
    ) throws(InviteError) -> [UInt8] {
        try seal(conversationID: conversationID, creatorKey: creatorKey, creatorId: creatorId,
                 nonce: rng.bytes(ChaChaPoly.nonceByteCount))
    }

    /// Encrypts with a caller-chosen nonce. Only for test vectors: a repeated nonce under one
    /// creator key leaks the XOR of two conversation ids.
    public static func seal(
        conversationID: String, creatorKey: Secp256k1.PrivateKey, creatorId: String, nonce: [UInt8]
    ) throws(InviteError) -> [UInt8] {
        let plaintext = try encodePlaintext(conversationID)
        let key = deriveKey(creatorKey: creatorKey, creatorId: creatorId)
        let sealed: [UInt8]
        do {
            sealed = try ChaChaPoly.seal(plaintext, key: key, nonce: nonce, aad: Array(creatorId.utf8))
        } catch {
            throw InviteError(.invalidArgument, "nonce must be 12 bytes")
        }
        return [version] + nonce + sealed
    }

    /// Decrypts a token with the creator's secret key.
    public static func open(_ token: [UInt8], creatorKey: Secp256k1.PrivateKey, creatorId: String) throws(InviteError) -> String {
        let minimum = 1 + ChaChaPoly.nonceByteCount + ChaChaPoly.tagByteCount
        guard token.count >= minimum else { throw InviteError(.tokenMalformed, "token shorter than \(minimum) bytes") }
        guard token[0] == version else { throw InviteError(.tokenUnsupportedVersion, "version \(token[0])") }
        let nonce = Array(token[1..<13])
        let key = deriveKey(creatorKey: creatorKey, creatorId: creatorId)
        let plaintext: [UInt8]
        do {
            plaintext = try ChaChaPoly.open(token[13...], key: key, nonce: nonce, aad: Array(creatorId.utf8))
        } catch {
            throw InviteError(.tokenDecryptionFailed)
        }
        return try decodePlaintext(plaintext)
    }

    static func deriveKey(creatorKey: Secp256k1.PrivateKey, creatorId: String) -> SecureBytes {
        let prk = HKDF.extract(salt: salt, ikm: creatorKey.rawRepresentation)
        return HKDF.expand(prk: prk, info: Array(("inbox:" + creatorId).utf8), count: ChaChaPoly.keyByteCount)
    }

    /// The UUID form is used only when rendering the 16 bytes back gives exactly `id` (canonical
    /// lowercase), so every id round-trips byte for byte.
    public static func encodePlaintext(_ id: String) throws(InviteError) -> [UInt8] {
        if let uuid = parseCanonicalUUID(id) { return [uuidForm] + uuid }
        let utf8 = Array(id.utf8)
        guard !utf8.isEmpty else { throw InviteError(.invalidArgument, "conversation id is empty") }
        guard utf8.count <= maxStringLength else { throw InviteError(.invalidArgument, "conversation id longer than 65535 bytes") }
        if utf8.count <= 255 { return [stringForm, UInt8(utf8.count)] + utf8 }
        return [stringForm, 0, UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)] + utf8
    }

    /// Reads either plaintext form back to the conversation id.
    public static func decodePlaintext(_ p: [UInt8]) throws(InviteError) -> String {
        guard let form = p.first else { throw InviteError(.tokenMalformed, "empty plaintext") }
        switch form {
        case uuidForm:
            guard p.count == 17 else { throw InviteError(.tokenMalformed, "UUID form must be 17 bytes") }
            return renderUUID(Array(p[1...]))
        case stringForm:
            guard p.count >= 2 else { throw InviteError(.tokenMalformed, "missing length") }
            var length = Int(p[1])
            var start = 2
            if length == 0 {
                guard p.count >= 4 else { throw InviteError(.tokenMalformed, "missing long length") }
                length = Int(p[2]) << 8 | Int(p[3])
                start = 4
            }
            guard p.count - start == length else { throw InviteError(.tokenMalformed, "length does not match") }
            guard let s = String(validating: p[start...], as: UTF8.self) else { throw InviteError(.tokenMalformed, "not UTF-8") }
            return s
        default:
            throw InviteError(.tokenMalformed, "plaintext form \(form)")
        }
    }

    static func parseCanonicalUUID(_ s: String) -> [UInt8]? {
        let u = Array(s.utf8)
        guard u.count == 36, u[8] == 0x2D, u[13] == 0x2D, u[18] == 0x2D, u[23] == 0x2D else { return nil }
        var hex = u
        hex.removeAll { $0 == 0x2D }
        guard hex.count == 32, hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        return Hex.decode(String(decoding: hex, as: UTF8.self))
    }

    static func renderUUID(_ b: [UInt8]) -> String {
        let h = Hex.encode(b)
        let c = Array(h)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }
}
