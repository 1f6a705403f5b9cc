/// `GroupContext` (RFC 9420 §8.1): the group's shared state that every epoch's secrets and
/// signatures bind to.
public struct GroupContext: Hashable, Sendable, TLSCodable {
    public var version: ProtocolVersion
    public var cipherSuite: CipherSuite
    public var groupID: [UInt8]
    public var epoch: UInt64
    public var treeHash: [UInt8]
    public var confirmedTranscriptHash: [UInt8]
    public var extensions: [MLSExtension]

    public init(version: ProtocolVersion = .mls10, cipherSuite: CipherSuite, groupID: [UInt8], epoch: UInt64,
                treeHash: [UInt8], confirmedTranscriptHash: [UInt8], extensions: [MLSExtension]) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.groupID = groupID
        self.epoch = epoch
        self.treeHash = treeHash
        self.confirmedTranscriptHash = confirmedTranscriptHash
        self.extensions = extensions
    }

    public init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuite(from: &reader)
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        treeHash = try reader.readOpaque()
        confirmedTranscriptHash = try reader.readOpaque()
        extensions = try reader.readVector { try MLSExtension(from: &$0) }
    }

    public func encode(to writer: inout TLSWriter) {
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        writer.writeOpaque(treeHash)
        writer.writeOpaque(confirmedTranscriptHash)
        writer.writeVector(extensions)
    }

    /// The first extension of `type`, if any.
    public func `extension`(_ type: UInt16) -> MLSExtension? { extensions.first { $0.extensionType == type } }
}
