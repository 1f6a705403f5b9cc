import InviteKitCrypto

/// Reads the key formats people paste: 64 hex characters, `nsec1…`, `npub1…`.
public enum NostrKeys {
    /// A secret key from hex or nsec. The input string is the caller's; this never copies it
    /// into another String.
    public static func parseSecretKey(_ input: String) throws(NostrError) -> Secp256k1.PrivateKey {
        let trimmed = input.trimmingWhitespace()
        let secret: SecureBytes
        if trimmed.hasPrefix("nsec1") {
            guard case .nsec(let s) = try NIP19.decode(String(trimmed)) else { throw NostrError(.invalidKey, "not an nsec") }
            secret = s
        } else if let s = Hex.decodeSecret(trimmed, count: 32) {
            secret = s
        } else {
            throw NostrError(.invalidKey, "secret key must be 64 hex characters or nsec1…")
        }
        do { return try Secp256k1.PrivateKey(rawRepresentation: secret) } catch {
            throw NostrError(.invalidKey, "secret key is out of range for secp256k1")
        }
    }

    /// A public key from hex or npub; an nsec or secret hex is *not* accepted here.
    public static func parsePublicKey(_ input: String) throws(NostrError) -> Secp256k1.XOnlyPublicKey {
        let trimmed = input.trimmingWhitespace()
        if trimmed.hasPrefix("npub1") {
            guard case .npub(let k) = try NIP19.decode(String(trimmed)) else { throw NostrError(.invalidKey, "not an npub") }
            return k
        }
        guard let raw = Hex.decode(trimmed, count: 32) else { throw NostrError(.invalidKey, "public key must be 64 hex characters or npub1…") }
        do { return try Secp256k1.XOnlyPublicKey(rawRepresentation: raw) } catch {
            throw NostrError(.invalidKey, "public key is not on secp256k1")
        }
    }

    /// Either kind of key; a secret key yields its public key too.
    public static func parseAnyKey(_ input: String) throws(NostrError) -> (secret: Secp256k1.PrivateKey?, publicKey: Secp256k1.XOnlyPublicKey) {
        let trimmed = input.trimmingWhitespace()
        if trimmed.hasPrefix("npub1") { return (nil, try parsePublicKey(input)) }
        let k = try parseSecretKey(input)
        return (k, k.publicKey)
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return s
    }
}
