/// `LeafNode` (RFC 9420 §7.2).
package struct LeafNode: Hashable, Sendable, TLSCodable {
    /// `leaf_node_source` and its dependent field.
    package enum Source: Hashable, Sendable {
        case keyPackage(Lifetime)
        case update
        case commit(parentHash: [UInt8])

        var rawValue: UInt8 {
            switch self {
            case .keyPackage: return 1
            case .update: return 2
            case .commit: return 3
            }
        }
    }

    package var encryptionKey: [UInt8]
    package var signatureKey: [UInt8]
    package var credential: Credential
    package var capabilities: Capabilities
    package var source: Source
    package var extensions: [MLSExtension]
    package var signature: [UInt8]

    package init(encryptionKey: [UInt8], signatureKey: [UInt8], credential: Credential, capabilities: Capabilities,
                source: Source, extensions: [MLSExtension], signature: [UInt8]) {
        self.encryptionKey = encryptionKey
        self.signatureKey = signatureKey
        self.credential = credential
        self.capabilities = capabilities
        self.source = source
        self.extensions = extensions
        self.signature = signature
    }

    /// The lifetime when the source is `key_package`.
    package var lifetime: Lifetime? {
        if case .keyPackage(let l) = source { return l }
        return nil
    }

    package init(from reader: inout TLSReader) throws {
        encryptionKey = try reader.readOpaque()
        signatureKey = try reader.readOpaque()
        credential = try Credential(from: &reader)
        capabilities = try Capabilities(from: &reader)
        switch try reader.readUInt8() {
        case 1: source = .keyPackage(try Lifetime(from: &reader))
        case 2: source = .update
        case 3: source = .commit(parentHash: try reader.readOpaque())
        case let v: throw MLSError(.invalidValue, "leaf_node_source \(v)")
        }
        extensions = try reader.readVector { try MLSExtension(from: &$0) }
        signature = try reader.readOpaque()
    }

    /// `LeafNodeTBS` (RFC 9420 §7.2). For `update`/`commit` sources the group id and leaf index
    /// follow; for `key_package` leaves nothing follows (see `LeafNode+Signing.swift`).
    package func encodeTBS(to writer: inout TLSWriter, groupID: [UInt8] = [], leafIndex: UInt32 = 0) {
        encodeContent(to: &writer)
        switch source {
        case .keyPackage: break
        case .update, .commit:
            writer.writeOpaque(groupID)
            writer.writeUInt32(leafIndex)
        }
    }

    /// The bytes `LeafNodeTBS` for a `key_package` leaf.
    package var tbs: [UInt8] {
        var w = TLSWriter()
        encodeTBS(to: &w)
        return w.bytes
    }

    package func encode(to writer: inout TLSWriter) {
        encodeContent(to: &writer)
        writer.writeOpaque(signature)
    }

    /// The fields the wire form and `LeafNodeTBS` share, up to and including the extensions.
    private func encodeContent(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeOpaque(signatureKey)
        credential.encode(to: &writer)
        capabilities.encode(to: &writer)
        writer.writeUInt8(source.rawValue)
        switch source {
        case .keyPackage(let l): l.encode(to: &writer)
        case .update: break
        case .commit(let ph): writer.writeOpaque(ph)
        }
        writer.writeVector(extensions)
    }
}
