/// `KeyPackage` (RFC 9420 §10).
public struct KeyPackage: Hashable, Sendable, TLSCodable {
    package var version: ProtocolVersion
    package var cipherSuite: CipherSuite
    package var initKey: [UInt8]
    package var leafNode: LeafNode
    package var extensions: [MLSExtension]
    package var signature: [UInt8]

    package init(version: ProtocolVersion, cipherSuite: CipherSuite, initKey: [UInt8], leafNode: LeafNode,
                extensions: [MLSExtension], signature: [UInt8]) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.initKey = initKey
        self.leafNode = leafNode
        self.extensions = extensions
        self.signature = signature
    }

    /// `true` when the `last_resort` extension (0x000a) is present (RFC 9420 §17.3).
    /// MIP profile: the `last_resort` extension `0x000a`; current profile: the empty
    /// `last_resort_key_package` component `0x0004` in the KeyPackage's `app_data_dictionary`.
    package var isLastResort: Bool {
        if extensions.contains(where: { $0.extensionType == MLSExtension.lastResortType }) { return true }
        return (try? AppDataDictionary(extensions: extensions))??[ComponentID.lastResortKeyPackage] == []
    }

    /// The Marmot profile the KeyPackage was made for (by its leaf).
    public var profile: MarmotWireProfile { MarmotWireProfile.of(leaf: leafNode) }

    package init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuite(from: &reader)
        initKey = try reader.readOpaque()
        leafNode = try LeafNode(from: &reader)
        extensions = try reader.readVector { try MLSExtension(from: &$0) }
        signature = try reader.readOpaque()
    }

    /// `KeyPackageTBS`: everything but the signature.
    package func encodeTBS(to writer: inout TLSWriter) {
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeOpaque(initKey)
        leafNode.encode(to: &writer)
        writer.writeVector(extensions)
    }

    package var tbs: [UInt8] {
        var w = TLSWriter()
        encodeTBS(to: &w)
        return w.bytes
    }

    package func encode(to writer: inout TLSWriter) {
        encodeTBS(to: &writer)
        writer.writeOpaque(signature)
    }
}
