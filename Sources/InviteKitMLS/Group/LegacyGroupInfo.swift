import InviteKitCrypto

/// What a joiner learns about the group (group.md §Welcome).
///
/// `GroupContext group_context; Member members<V>; opaque confirmation_tag<V>; uint32 signer_index;
/// opaque signature<V>;` — signature = `SignWithLabel(signer, "GroupInfoTBS", SHA-256(all fields before it))`.
public struct LegacyGroupInfo: Hashable, Sendable, TLSCodable {
    public var groupContext: LegacyGroupContext
    public var members: [GroupMember]
    public var confirmationTag: [UInt8]
    public var signerIndex: UInt32
    public var signature: [UInt8]

    public init(groupContext: LegacyGroupContext, members: [GroupMember], confirmationTag: [UInt8], signerIndex: UInt32, signature: [UInt8]) {
        self.groupContext = groupContext
        self.members = members
        self.confirmationTag = confirmationTag
        self.signerIndex = signerIndex
        self.signature = signature
    }

    public init(from reader: inout TLSReader) throws {
        groupContext = try LegacyGroupContext(from: &reader)
        members = try reader.readVector { try GroupMember(from: &$0) }
        confirmationTag = try reader.readOpaque()
        signerIndex = try reader.readUInt32()
        signature = try reader.readOpaque()
    }

    /// Parses a GroupInfo and hashes, from the received bytes themselves, each member entry and the
    /// signed prefix (so a 1,000-member roster is not re-serialized to be hashed).
    package static func parseHashing(_ reader: inout TLSReader) throws -> (info: LegacyGroupInfo, memberHashes: [[UInt8]], tbsHash: [UInt8]) {
        let start = reader.position
        let ctx = try LegacyGroupContext(from: &reader)
        let n = try reader.readVarint()
        guard n <= reader.remaining else { throw MLSError(.truncated, "members vector") }
        let end = reader.position + n
        var members: [GroupMember] = []
        var hashes: [[UInt8]] = []
        members.reserveCapacity(n / 100)
        hashes.reserveCapacity(n / 100)
        while reader.position < end {
            let s = reader.position
            members.append(try GroupMember(from: &reader))
            hashes.append(reader.withBytes(s..<reader.position) { SHA256.hash($0) })
        }
        guard reader.position == end else { throw MLSError(.trailingBytes, "members vector") }
        let tag = try reader.readOpaque()
        let signer = try reader.readUInt32()
        let tbsHash = reader.withBytes(start..<reader.position) { SHA256.hash($0) }
        let sig = try reader.readOpaque()
        return (LegacyGroupInfo(groupContext: ctx, members: members, confirmationTag: tag, signerIndex: signer, signature: sig), hashes, tbsHash)
    }

    func encodeTBS(to writer: inout TLSWriter) {
        groupContext.encode(to: &writer)
        writer.writeVector(members)
        writer.writeOpaque(confirmationTag)
        writer.writeUInt32(signerIndex)
    }

    public func encode(to writer: inout TLSWriter) {
        encodeTBS(to: &writer)
        writer.writeOpaque(signature)
    }

    package static let signLabel = "GroupInfoTBS"
}
