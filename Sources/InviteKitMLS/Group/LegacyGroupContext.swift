/// The group context each epoch's secrets are bound to (group.md §GroupContext).
///
/// `uint16 version; uint16 cipher_suite; opaque group_id<V>; opaque nostr_group_id<V>; uint64 epoch;
/// opaque roster_hash<V>; opaque confirmed_transcript_hash<V>;`
public struct LegacyGroupContext: Hashable, Sendable, TLSCodable {
    public var version: ProtocolVersion
    public var cipherSuite: CipherSuite
    public var groupID: [UInt8]
    public var nostrGroupID: [UInt8]
    public var epoch: UInt64
    public var rosterHash: [UInt8]
    public var confirmedTranscriptHash: [UInt8]

    public init(cipherSuite: CipherSuite, groupID: [UInt8], nostrGroupID: [UInt8], epoch: UInt64,
                rosterHash: [UInt8], confirmedTranscriptHash: [UInt8]) {
        version = .mls10
        self.cipherSuite = cipherSuite
        self.groupID = groupID
        self.nostrGroupID = nostrGroupID
        self.epoch = epoch
        self.rosterHash = rosterHash
        self.confirmedTranscriptHash = confirmedTranscriptHash
    }

    public init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        guard version == .mls10 else { throw MLSError(.invalidValue, "group context version") }
        cipherSuite = try CipherSuite(from: &reader)
        groupID = try reader.readOpaque()
        nostrGroupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        rosterHash = try reader.readOpaque()
        confirmedTranscriptHash = try reader.readOpaque()
    }

    public func encode(to writer: inout TLSWriter) {
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeOpaque(groupID)
        writer.writeOpaque(nostrGroupID)
        writer.writeUInt64(epoch)
        writer.writeOpaque(rosterHash)
        writer.writeOpaque(confirmedTranscriptHash)
    }
}
