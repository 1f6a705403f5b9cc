import InviteKitCrypto

/// What a kind-445 event's content decrypts to (group.md §GroupEventPlaintext).
///
/// `uint8 content_type; uint64 epoch; uint32 sender_index; opaque body<V>; opaque signature<V>;
/// opaque confirmation_tag<V>;`
public struct GroupEventPlaintext: Hashable, Sendable, TLSCodable {
    public enum ContentType: UInt8, Sendable {
        /// `body` = the inner (unsigned) Nostr event JSON, UTF-8.
        case application = 1
        /// `body` = a ``Commit``.
        case commit = 2
        /// `body` = a ``Proposal`` (only `self_remove` of the sender is accepted).
        case proposal = 3
    }

    public var contentType: ContentType
    public var epoch: UInt64
    public var senderIndex: UInt32
    public var body: [UInt8]
    public var signature: [UInt8]
    /// Commits only; empty otherwise.
    public var confirmationTag: [UInt8]

    public init(contentType: ContentType, epoch: UInt64, senderIndex: UInt32, body: [UInt8], signature: [UInt8] = [],
                confirmationTag: [UInt8] = []) {
        self.contentType = contentType
        self.epoch = epoch
        self.senderIndex = senderIndex
        self.body = body
        self.signature = signature
        self.confirmationTag = confirmationTag
    }

    public init(from reader: inout TLSReader) throws {
        let t = try reader.readUInt8()
        guard let ct = ContentType(rawValue: t) else { throw MLSError(.invalidValue, "content_type \(t)") }
        contentType = ct
        epoch = try reader.readUInt64()
        senderIndex = try reader.readUInt32()
        body = try reader.readOpaque()
        signature = try reader.readOpaque()
        confirmationTag = try reader.readOpaque()
    }

    public func encode(to writer: inout TLSWriter) {
        writer.writeUInt8(contentType.rawValue)
        writer.writeUInt64(epoch)
        writer.writeUInt32(senderIndex)
        writer.writeOpaque(body)
        writer.writeOpaque(signature)
        writer.writeOpaque(confirmationTag)
    }

    /// `SHA-256(GroupEventTBS)` with `GroupEventTBS = opaque group_context<V>; uint8 content_type;
    /// uint64 epoch; uint32 sender_index; opaque body<V>;`. The signature is
    /// `SignWithLabel(key, "GroupEventTBS", tbs_hash)`: hashing first keeps Ed25519's two passes
    /// off the (large) commit body.
    package func tbsHash(groupContext: [UInt8]) -> [UInt8] {
        var head = TLSWriter(capacity: groupContext.count + 32)
        head.writeOpaque(groupContext)
        head.writeUInt8(contentType.rawValue)
        head.writeUInt64(epoch)
        head.writeUInt32(senderIndex)
        head.writeVarint(body.count)
        var h = SHA256()
        h.update(head.bytes)
        h.update(body)
        return h.finalize()
    }

    package static let signLabel = "GroupEventTBS"
}
