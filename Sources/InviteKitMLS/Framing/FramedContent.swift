/// `FramedContent` (RFC 9420 §6).
///
/// The proposal and commit bodies are kept as their exact TLS bytes: this layer frames, signs,
/// MACs and encrypts them without interpreting them, and the group engine parses them with its
/// own `Proposal` and `Commit` types. Because those encodings are self-delimiting (nothing in
/// FramedContent gives their length), decoding walks them with a ``FramedContentBodyParser``.
package struct FramedContent: Hashable, Sendable, TLSCodable {
    /// The content: application data, or a serialized `Proposal` or `Commit`.
    package enum Body: Hashable, Sendable {
        /// `opaque application_data<V>`.
        case application([UInt8])
        /// The TLS serialization of one `Proposal` (RFC 9420 §12.1).
        case proposal([UInt8])
        /// The TLS serialization of one `Commit` (RFC 9420 §12.4).
        case commit([UInt8])

        package var contentType: ContentType {
            switch self {
            case .application: return .application
            case .proposal: return .proposal
            case .commit: return .commit
            }
        }

        /// Writes the body as it appears after `content_type` (application data is length-prefixed,
        /// proposal and commit bytes are written as they are).
        func encode(to writer: inout TLSWriter) {
            switch self {
            case .application(let data): writer.writeOpaque(data)
            case .proposal(let bytes), .commit(let bytes): writer.writeBytes(bytes)
            }
        }

        /// Reads a body of `type`, using `parser` to find the end of a proposal or commit.
        static func decode(_ type: ContentType, from reader: inout TLSReader, parser: FramedContentBodyParser) throws -> Body {
            switch type {
            case .application:
                return .application(try reader.readOpaque())
            case .proposal:
                let start = reader.position
                try parser.skipProposal(&reader)
                return .proposal(reader.slice(start..<reader.position))
            case .commit:
                let start = reader.position
                try parser.skipCommit(&reader)
                return .commit(reader.slice(start..<reader.position))
            }
        }
    }

    /// `group_id`.
    package var groupID: [UInt8]
    /// The epoch the content was framed in.
    package var epoch: UInt64
    package var sender: Sender
    /// `authenticated_data`: sent in the clear but covered by the signature (and, in a
    /// PrivateMessage, by the AEAD).
    package var authenticatedData: [UInt8]
    package var body: Body

    package var contentType: ContentType { body.contentType }

    package init(groupID: [UInt8], epoch: UInt64, sender: Sender, authenticatedData: [UInt8] = [], body: Body) {
        self.groupID = groupID
        self.epoch = epoch
        self.sender = sender
        self.authenticatedData = authenticatedData
        self.body = body
    }

    /// Parses with ``FramedContentBodyParser/standard``.
    package init(from reader: inout TLSReader) throws { try self.init(from: &reader, parser: .standard) }

    package init(from reader: inout TLSReader, parser: FramedContentBodyParser) throws {
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        sender = try Sender(from: &reader)
        authenticatedData = try reader.readOpaque()
        let type = try ContentType(from: &reader)
        body = try Body.decode(type, from: &reader, parser: parser)
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        sender.encode(to: &writer)
        writer.writeOpaque(authenticatedData)
        contentType.encode(to: &writer)
        body.encode(to: &writer)
    }
}
