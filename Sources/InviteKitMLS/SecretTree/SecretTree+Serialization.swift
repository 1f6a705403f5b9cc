import InviteKitCrypto

/// Persisted form of a secret tree, so the engine can store group state between runs.
///
/// ```
/// uint8 format = 1; uint16 cipher_suite; uint32 leaf_count;
/// struct { uint32 node; opaque secret<V>; } node_secrets<V>;
/// struct { uint32 leaf; Ratchet handshake; Ratchet application; } leaves<V>;
/// Ratchet: uint32 next_generation; uint8 has_secret; [opaque secret<V>];
///          struct { uint32 generation; opaque key<V>; opaque nonce<V>; } retained<V>;
/// ```
/// The bytes hold live secrets: the caller stores them as such. Parsing copies them straight into
/// ``SecureBytes``.
extension SecretTree: TLSCodable {
    static let formatVersion: UInt8 = 1

    package func encode(to writer: inout TLSWriter) {
        writer.writeUInt8(Self.formatVersion)
        suite.encode(to: &writer)
        writer.writeUInt32(leafCount)
        writer.writeVector { w in
            for node in nodeSecrets.keys.sorted() {
                w.writeUInt32(node)
                nodeSecrets[node]!.withUnsafeBytes { w.writeOpaque($0) }
            }
        }
        writer.writeVector { w in
            for leaf in ratchets.keys.sorted() {
                w.writeUInt32(leaf)
                for r in ratchets[leaf]! { Self.encode(r, to: &w) }
            }
        }
    }

    private static func encode(_ r: HashRatchet, to w: inout TLSWriter) {
        w.writeUInt32(r.nextGeneration)
        if let s = r.secret {
            w.writeUInt8(1)
            s.withUnsafeBytes { w.writeOpaque($0) }
        } else {
            w.writeUInt8(0)
        }
        w.writeVector { v in
            for g in r.retained.keys.sorted() {
                let k = r.retained[g]!
                v.writeUInt32(g)
                k.key.withUnsafeBytes { v.writeOpaque($0) }
                k.nonce.withUnsafeBytes { v.writeOpaque($0) }
            }
        }
    }

    /// Restores a tree written by ``encode(to:)``.
    package init(from reader: inout TLSReader) throws {
        let version = try reader.readUInt8()
        guard version == Self.formatVersion else { throw MLSError(.invalidValue, "secret tree format \(version)") }
        let suite = try CipherSuite(from: &reader)
        let aead = try suite.hpke().aead
        let leafCount = try reader.readUInt32()
        guard leafCount >= 1, leafCount <= 1 << 30 else { throw MLSError(.invalidValue, "leaf count \(leafCount)") }
        let width = 2 * (Self.root(leafCount: leafCount) + 1) - 1
        var nodes: [UInt32: SecureBytes] = [:]
        _ = try reader.readVector { r -> Void in
            let node = try r.readUInt32()
            guard node < width, nodes[node] == nil else { throw MLSError(.invalidValue, "node \(node)") }
            nodes[node] = try Self.readSecret(&r, length: suite.hashLength)
        }
        var ratchets: [UInt32: [HashRatchet]] = [:]
        _ = try reader.readVector { r -> Void in
            let leaf = try r.readUInt32()
            guard leaf < leafCount, ratchets[leaf] == nil else { throw MLSError(.invalidValue, "leaf \(leaf)") }
            ratchets[leaf] = try (0..<2).map { _ in try Self.readRatchet(&r, suite: suite, aead: aead) }
        }
        try self.init(suite: suite, leafCount: leafCount, nodeSecrets: nodes, ratchets: ratchets)
    }

    private static func readSecret(_ r: inout TLSReader, length: Int) throws -> SecureBytes {
        let range = try r.skipOpaque()
        guard range.count == length else { throw MLSError(.invalidValue, "secret of \(range.count) bytes") }
        return r.withBytes(range) { SecureBytes(copying: $0) }
    }

    private static func readRatchet(_ r: inout TLSReader, suite: CipherSuite, aead: HPKEAEAD) throws -> HashRatchet {
        let next = try r.readUInt32()
        let secret: SecureBytes?
        switch try r.readUInt8() {
        case 0: secret = nil
        case 1: secret = try readSecret(&r, length: suite.hashLength)
        case let v: throw MLSError(.invalidValue, "presence byte \(v)")
        }
        var retained: [UInt32: RatchetKey] = [:]
        _ = try r.readVector { v -> Void in
            let g = try v.readUInt32()
            guard g < next || secret == nil, retained[g] == nil else { throw MLSError(.invalidValue, "retained generation \(g)") }
            retained[g] = RatchetKey(generation: g, key: try readSecret(&v, length: aead.keyCount),
                                     nonce: try readSecret(&v, length: aead.nonceCount))
        }
        return HashRatchet(nextGeneration: next, secret: secret, retained: retained)
    }
}
