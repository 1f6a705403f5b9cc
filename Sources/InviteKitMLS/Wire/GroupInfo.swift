/// `GroupInfo` (RFC 9420 §12.4.3): the state a joiner needs, signed by the committer.
package struct GroupInfo: Hashable, Sendable, TLSCodable {
    package var groupContext: GroupContext
    package var extensions: [MLSExtension]
    package var confirmationTag: [UInt8]
    /// The leaf index of the signer.
    package var signer: UInt32
    package var signature: [UInt8]

    package init(groupContext: GroupContext, extensions: [MLSExtension], confirmationTag: [UInt8], signer: UInt32, signature: [UInt8]) {
        self.groupContext = groupContext
        self.extensions = extensions
        self.confirmationTag = confirmationTag
        self.signer = signer
        self.signature = signature
    }

    package init(from reader: inout TLSReader) throws {
        groupContext = try GroupContext(from: &reader)
        extensions = try reader.readVector { try MLSExtension(from: &$0) }
        confirmationTag = try reader.readOpaque()
        signer = try reader.readUInt32()
        signature = try reader.readOpaque()
    }

    /// `GroupInfoTBS`: every field but the signature.
    package var tbs: [UInt8] {
        var w = TLSWriter(capacity: 256)
        encodeTBS(to: &w)
        return w.bytes
    }

    func encodeTBS(to writer: inout TLSWriter) {
        groupContext.encode(to: &writer)
        writer.writeVector(extensions)
        writer.writeOpaque(confirmationTag)
        writer.writeUInt32(signer)
    }

    package func encode(to writer: inout TLSWriter) {
        encodeTBS(to: &writer)
        writer.writeOpaque(signature)
    }

    /// The first extension of `type`, if any.
    package func `extension`(_ type: UInt16) -> MLSExtension? { extensions.first { $0.extensionType == type } }
}
