/// `PrivateMessage` (RFC 9420 §6.3): encrypted framing; the sender and generation are hidden in
/// `encrypted_sender_data`.
package struct PrivateMessage: Hashable, Sendable, TLSCodable {
    package var groupID: [UInt8]
    package var epoch: UInt64
    package var contentType: ContentType
    package var authenticatedData: [UInt8]
    package var encryptedSenderData: [UInt8]
    package var ciphertext: [UInt8]

    package init(groupID: [UInt8], epoch: UInt64, contentType: ContentType, authenticatedData: [UInt8],
                encryptedSenderData: [UInt8], ciphertext: [UInt8]) {
        self.groupID = groupID
        self.epoch = epoch
        self.contentType = contentType
        self.authenticatedData = authenticatedData
        self.encryptedSenderData = encryptedSenderData
        self.ciphertext = ciphertext
    }

    package init(from reader: inout TLSReader) throws {
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        contentType = try ContentType(from: &reader)
        authenticatedData = try reader.readOpaque()
        encryptedSenderData = try reader.readOpaque()
        ciphertext = try reader.readOpaque()
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        contentType.encode(to: &writer)
        writer.writeOpaque(authenticatedData)
        writer.writeOpaque(encryptedSenderData)
        writer.writeOpaque(ciphertext)
    }

    /// `PrivateContentAAD = { group_id<V>; uint64 epoch; ContentType content_type; authenticated_data<V>; }`.
    var contentAAD: [UInt8] {
        var w = TLSWriter(capacity: groupID.count + authenticatedData.count + 16)
        w.writeOpaque(groupID)
        w.writeUInt64(epoch)
        contentType.encode(to: &w)
        w.writeOpaque(authenticatedData)
        return w.bytes
    }
}
