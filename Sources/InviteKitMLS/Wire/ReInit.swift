/// `ReInit` (RFC 9420 §12.1.5). Parsed only: the Marmot profile never reinitializes a group.
public struct ReInit: Hashable, Sendable, TLSCodable {
    public var groupID: [UInt8]
    public var version: ProtocolVersion
    public var cipherSuite: CipherSuite
    public var extensions: [MLSExtension]

    public init(groupID: [UInt8], version: ProtocolVersion, cipherSuite: CipherSuite, extensions: [MLSExtension]) {
        self.groupID = groupID
        self.version = version
        self.cipherSuite = cipherSuite
        self.extensions = extensions
    }

    public init(from reader: inout TLSReader) throws {
        groupID = try reader.readOpaque()
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuite(from: &reader)
        extensions = try reader.readVector { try MLSExtension(from: &$0) }
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeVector(extensions)
    }
}
