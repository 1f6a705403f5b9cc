/// `GroupContext` (RFC 9420 §8.1): the group's shared state that every epoch's secrets and
/// signatures bind to.
package struct GroupContext: Hashable, Sendable, TLSCodable {
    package var version: ProtocolVersion
    package var cipherSuite: CipherSuite
    package var groupID: [UInt8]
    package var epoch: UInt64
    package var treeHash: [UInt8]
    package var confirmedTranscriptHash: [UInt8]
    package var extensions: [MLSExtension]

    package init(version: ProtocolVersion = .mls10, cipherSuite: CipherSuite, groupID: [UInt8], epoch: UInt64,
                treeHash: [UInt8], confirmedTranscriptHash: [UInt8], extensions: [MLSExtension]) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.groupID = groupID
        self.epoch = epoch
        self.treeHash = treeHash
        self.confirmedTranscriptHash = confirmedTranscriptHash
        self.extensions = extensions
    }

    package init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuite(from: &reader)
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        treeHash = try reader.readOpaque()
        confirmedTranscriptHash = try reader.readOpaque()
        extensions = try reader.readVector { try MLSExtension(from: &$0) }
    }

    package func encode(to writer: inout TLSWriter) {
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        writer.writeOpaque(treeHash)
        writer.writeOpaque(confirmedTranscriptHash)
        writer.writeVector(extensions)
    }

    /// The first extension of `type`, if any.
    package func `extension`(_ type: UInt16) -> MLSExtension? { extensions.first { $0.extensionType == type } }
}
