import InviteKitCrypto

/// A versioned byte form for persisting ``TreePrivateState``:
/// `uint8 version = 1; uint32 leaf_index; opaque leaf_key<V>; { uint32 node; opaque key<V>; } path_keys<V>`.
extension TreePrivateState {
    static let envelope = VersionedEnvelope("tree private state", version: 1)

    /// The state as bytes, in zeroizing storage.
    package func serialized() -> SecureBytes {
        Self.envelope.seal(capacity: 64 + pathKeys.count * 40) { w in
            w.writeUInt32(leafIndex)
            var leaf = leafKey.rawRepresentation.exportBytes()
            w.writeOpaque(leaf)
            zeroize(&leaf)
            w.writeVector { v in
                for (node, key) in pathKeys.sorted(by: { $0.key < $1.key }) {
                    v.writeUInt32(node)
                    var raw = key.rawRepresentation.exportBytes()
                    v.writeOpaque(raw)
                    zeroize(&raw)
                }
            }
        }
    }

    /// Reads the form ``serialized()`` writes.
    package init(serialized data: SecureBytes) throws {
        let (index, leafKey, keys) = try Self.envelope.open(data) { _, r in
            let index = try r.readUInt32()
            var leaf = try r.readOpaque()
            defer { zeroize(&leaf) }
            let leafKey = try X25519.PrivateKey(rawRepresentationChecked: leaf)
            var keys: [UInt32: X25519.PrivateKey] = [:]
            _ = try r.readVector { v -> Void in
                let node = try v.readUInt32()
                var raw = try v.readOpaque()
                defer { zeroize(&raw) }
                guard node & 1 == 1, keys[node] == nil else { throw MLSError(.invalidValue, "path key for node \(node)") }
                keys[node] = try X25519.PrivateKey(rawRepresentationChecked: raw)
            }
            return (index, leafKey, keys)
        }
        self.init(leafIndex: index, leafKey: leafKey, pathKeys: keys)
    }
}

extension X25519.PrivateKey {
    /// `init(rawRepresentation:)` with the module's error type.
    package init(rawRepresentationChecked raw: [UInt8]) throws {
        do { try self.init(rawRepresentation: raw) } catch { throw MLSError(.invalidKey, "X25519 private key") }
    }
}
