/// A commit body (group.md §Commit): `Proposal proposals<V>; SealedCommitSecret secrets<V>;`
public struct LegacyCommit: Hashable, Sendable, TLSCodable {
    /// `uint32 recipient_index; HPKECiphertext sealed;` — the commit secret sealed to the member
    /// at `recipient_index` of the NEW roster.
    public struct SealedSecret: Hashable, Sendable, TLSCodable {
        public var recipientIndex: UInt32
        public var sealed: HPKECiphertext

        public init(recipientIndex: UInt32, sealed: HPKECiphertext) {
            self.recipientIndex = recipientIndex
            self.sealed = sealed
        }

        public init(from reader: inout TLSReader) throws {
            recipientIndex = try reader.readUInt32()
            sealed = try HPKECiphertext(from: &reader)
        }

        public func encode(to writer: inout TLSWriter) {
            writer.writeUInt32(recipientIndex)
            sealed.encode(to: &writer)
        }
    }

    public var proposals: [LegacyProposal]
    public var secrets: [SealedSecret]

    public init(proposals: [LegacyProposal], secrets: [SealedSecret]) {
        self.proposals = proposals
        self.secrets = secrets
    }

    public init(from reader: inout TLSReader) throws {
        proposals = try reader.readVector { try LegacyProposal(from: &$0) }
        secrets = try reader.readVector { try SealedSecret(from: &$0) }
    }

    /// Reads the `secrets` vector (the reader stands at it) and returns the entry for
    /// `recipientIndex` without materializing the others; the whole body must be well formed.
    static func findSecret(in reader: inout TLSReader, recipientIndex: UInt32) throws -> SealedSecret? {
        let n = try reader.readVarint()
        guard n <= reader.remaining else { throw MLSError(.truncated, "secrets vector") }
        let end = reader.position + n
        var found: SealedSecret?
        while reader.position < end {
            let idx = try reader.readUInt32()
            if idx == recipientIndex && found == nil {
                found = SealedSecret(recipientIndex: idx, sealed: try HPKECiphertext(from: &reader))
            } else {
                _ = try reader.skipOpaque()
                _ = try reader.skipOpaque()
            }
        }
        guard reader.position == end else { throw MLSError(.trailingBytes, "secrets vector") }
        try reader.finish()
        return found
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(proposals)
        writer.writeVector(secrets)
    }
}
