/// `ReInit` (RFC 9420 §12.1.5). Parsed only: the Marmot profile never reinitializes a group.
package struct ReInit: Hashable, Sendable, TLSCodable {
    package var groupID: [UInt8]
    package var version: ProtocolVersion
    package var cipherSuite: CipherSuite
    package var extensions: [MLSExtension]

    package init(groupID: [UInt8], version: ProtocolVersion, cipherSuite: CipherSuite, extensions: [MLSExtension]) {
        self.groupID = groupID
        self.version = version
        self.cipherSuite = cipherSuite
        self.extensions = extensions
    }

    package init(from reader: inout TLSReader) throws {
        groupID = try reader.readOpaque()
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuite(from: &reader)
        extensions = try reader.readVector { try MLSExtension(from: &$0) }
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeVector(extensions)
    }
}
