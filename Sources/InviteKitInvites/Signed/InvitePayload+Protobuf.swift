extension InvitePayload {
    enum Field {
        static let conversationToken: UInt32 = 1
        static let creatorInboxId: UInt32 = 2
        static let tag: UInt32 = 3
        static let name: UInt32 = 4
        static let description: UInt32 = 5
        static let imageURL: UInt32 = 6
        static let conversationExpiresAtUnix: UInt32 = 7
        static let expiresAtUnix: UInt32 = 8
        static let expiresAfterUse: UInt32 = 9
        static let emoji: UInt32 = 10
        static let relays: UInt32 = 100
        static let mipProfile: UInt32 = 101
    }

    /// Proto3 encoding in field-number order, unknown fields last (as swift-protobuf writes
    /// them). Implicit-presence fields (1, 2, 3, 9, 101) are omitted at their default; `optional`
    /// fields are written whenever set, even when empty or zero.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter(capacity: 96 + conversationToken.count + relays.reduce(0) { $0 + $1.utf8.count + 3 })
        if !conversationToken.isEmpty { w.writeBytes(Field.conversationToken, conversationToken) }
        if !creatorInboxId.isEmpty { w.writeBytes(Field.creatorInboxId, creatorInboxId) }
        if !tag.isEmpty { w.writeString(Field.tag, tag) }
        if let name { w.writeString(Field.name, name) }
        if let description { w.writeString(Field.description, description) }
        if let imageURL { w.writeString(Field.imageURL, imageURL) }
        if let conversationExpiresAtUnix { w.writeSFixed64(Field.conversationExpiresAtUnix, conversationExpiresAtUnix) }
        if let expiresAtUnix { w.writeSFixed64(Field.expiresAtUnix, expiresAtUnix) }
        if expiresAfterUse { w.writeBool(Field.expiresAfterUse, true) }
        if let emoji { w.writeString(Field.emoji, emoji) }
        for relay in relays { w.writeString(Field.relays, relay) }
        if mipProfile { w.writeBool(Field.mipProfile, true) }
        for raw in unknownFields { w.writeRaw(raw) }
        return w.bytes
    }

    /// Parses a serialized `InvitePayload`. A known field with the wrong wire type is an error
    /// (not silently treated as unknown: the signature would then cover a meaning the reader
    /// never saw). A repeated singular field takes the last value, as every protobuf parser does,
    /// so InviteKit reads the same invite Convos reads.
    public init(serializedBytes bytes: [UInt8]) throws(ProtobufError) {
        self.init()
        var r = ProtoReader(bytes)
        while !r.isAtEnd {
            let start = r.offset
            let (field, wt) = try r.readTag()
            func expect(_ t: ProtoWireType) throws(ProtobufError) {
                if wt != t { throw ProtobufError(.wrongWireType, "field \(field) has wire type \(wt.rawValue)") }
            }
            switch field {
            case Field.conversationToken:
                try expect(.lengthDelimited); conversationToken = Array(try r.readLengthDelimited())
            case Field.creatorInboxId:
                try expect(.lengthDelimited); creatorInboxId = Array(try r.readLengthDelimited())
            case Field.tag:
                try expect(.lengthDelimited); tag = try r.readString()
            case Field.name:
                try expect(.lengthDelimited); name = try r.readString()
            case Field.description:
                try expect(.lengthDelimited); description = try r.readString()
            case Field.imageURL:
                try expect(.lengthDelimited); imageURL = try r.readString()
            case Field.conversationExpiresAtUnix:
                try expect(.fixed64); conversationExpiresAtUnix = Int64(bitPattern: try r.readFixed64())
            case Field.expiresAtUnix:
                try expect(.fixed64); expiresAtUnix = Int64(bitPattern: try r.readFixed64())
            case Field.expiresAfterUse:
                try expect(.varint); expiresAfterUse = try r.readVarint() != 0
            case Field.emoji:
                try expect(.lengthDelimited); emoji = try r.readString()
            case Field.relays:
                try expect(.lengthDelimited); relays.append(try r.readString())
            case Field.mipProfile:
                try expect(.varint); mipProfile = try r.readVarint() != 0
            default:
                try r.skip(wt)
                unknownFields.append(r.rawField(from: start))
            }
        }
    }
}
