internal import CSecp256k1

extension Secp256k1 {
    /// A BIP-340 x-only public key (a Nostr `npub`): 32 bytes, the point with even y.
    public struct XOnlyPublicKey: Sendable, Hashable, CustomStringConvertible {
        /// The 32 serialized bytes.
        public let rawRepresentation: [UInt8]
        let parsed: secp256k1_xonly_pubkey

        /// Parses 32 bytes; fails when they are not the x coordinate of a curve point.
        public init(rawRepresentation: [UInt8]) throws {
            guard rawRepresentation.count == 32 else { throw CryptoError(.invalidPublicKey, "x-only public key must be 32 bytes") }
            var p = secp256k1_xonly_pubkey()
            guard secp256k1_xonly_pubkey_parse(Secp256k1.context, &p, rawRepresentation) == 1 else {
                throw CryptoError(.invalidPublicKey, "not a point on secp256k1")
            }
            self.rawRepresentation = rawRepresentation
            self.parsed = p
        }

        init(parsed: secp256k1_xonly_pubkey) {
            var p = parsed
            var out = [UInt8](repeating: 0, count: 32)
            _ = secp256k1_xonly_pubkey_serialize(Secp256k1.context, &out, &p)
            self.rawRepresentation = out
            self.parsed = parsed
        }

        /// Lowercase hex, as Nostr writes pubkeys.
        public var hex: String { Hex.encode(rawRepresentation) }
        public var description: String { hex }

        public static func == (a: Self, b: Self) -> Bool { a.rawRepresentation == b.rawRepresentation }
        public func hash(into h: inout Hasher) { h.combine(rawRepresentation) }

        /// The full point with even y, for ECDH. libsecp256k1 stores an x-only key as the point
        /// with even y in the same 64-byte layout as `secp256k1_pubkey` (its own x-only code casts
        /// one to the other), so this copies instead of re-parsing, which would cost a square root.
        var evenPoint: secp256k1_pubkey {
            var full = secp256k1_pubkey()
            withUnsafeBytes(of: parsed) { src in withUnsafeMutableBytes(of: &full) { $0.copyMemory(from: src) } }
            return full
        }
    }

    /// A full (compressed) public key, as recovered from an ECDSA signature.
    public struct PublicKey: Sendable, Hashable {
        /// SEC1 compressed form, 33 bytes.
        public let compressed: [UInt8]
        /// The x-only form (drops the parity).
        public let xOnly: XOnlyPublicKey

        init(point: secp256k1_pubkey) {
            var p = point
            var out = [UInt8](repeating: 0, count: 33)
            var len = 33
            _ = secp256k1_ec_pubkey_serialize(Secp256k1.context, &out, &len, &p, UInt32(SECP256K1_EC_COMPRESSED))
            var x = secp256k1_xonly_pubkey()
            _ = secp256k1_xonly_pubkey_from_pubkey(Secp256k1.context, &x, nil, &p)
            compressed = out
            xOnly = XOnlyPublicKey(parsed: x)
        }

        public static func == (a: Self, b: Self) -> Bool { a.compressed == b.compressed }
        public func hash(into h: inout Hasher) { h.combine(compressed) }
    }
}

// Safe: a plain 64-byte C struct with no pointers, copied by value.
extension secp256k1_xonly_pubkey: @retroactive @unchecked Sendable {}
