import InviteKitInvites

extension EncodedContent {
    /// Proto3 serialization. Zero scalars and empty strings/bytes are omitted, as proto3 does;
    /// the optional fields are written whenever set; map entries go out sorted by key so the
    /// bytes are deterministic.
    public func serialized() -> [UInt8] {
        var w = ProtoWriter(capacity: content.count + 64)
        var t = ProtoWriter()
        if !type.authorityID.isEmpty { t.writeString(1, type.authorityID) }
        if !type.typeID.isEmpty { t.writeString(2, type.typeID) }
        if type.versionMajor != 0 { t.writeTag(3, .varint); t.writeVarint(UInt64(type.versionMajor)) }
        if type.versionMinor != 0 { t.writeTag(4, .varint); t.writeVarint(UInt64(type.versionMinor)) }
        w.writeBytes(1, t.bytes)
        for key in parameters.keys.sorted() {
            var entry = ProtoWriter()
            if !key.isEmpty { entry.writeString(1, key) }
            if let v = parameters[key], !v.isEmpty { entry.writeString(2, v) }
            w.writeBytes(2, entry.bytes)
        }
        if let fallback { w.writeBytes(3, Array(fallback.utf8)) }
        if !content.isEmpty { w.writeBytes(4, content) }
        if let compression { w.writeTag(5, .varint); w.writeVarint(compression.rawValue) }
        return w.bytes
    }

    /// Parses the protobuf. Unknown fields are skipped; a known field with the wrong wire type,
    /// invalid UTF-8, or a truncated field is an error.
    public init(serialized bytes: [UInt8]) throws(ContentTypeError) {
        guard bytes.count <= Self.maxSerializedBytes else {
            throw ContentTypeError(.malformedEncodedContent, "larger than \(Self.maxSerializedBytes) bytes")
        }
        do {
            var r = ProtoReader(bytes)
            var type: ContentTypeID?
            var parameters = [String: String]()
            var fallback: String?
            var content = [UInt8]()
            var compression: Compression?
            while !r.isAtEnd {
                let (field, wire) = try r.readTag()
                switch (field, wire) {
                case (1, .lengthDelimited): type = try Self.parseType(Array(try r.readLengthDelimited()))
                case (2, .lengthDelimited):
                    let (k, v) = try Self.parseEntry(Array(try r.readLengthDelimited()))
                    parameters[k] = v
                case (3, .lengthDelimited): fallback = try Self.utf8(Array(try r.readLengthDelimited()))
                case (4, .lengthDelimited): content = Array(try r.readLengthDelimited())
                case (5, .varint):
                    let raw = try r.readVarint()
                    guard let c = Compression(rawValue: raw) else {
                        throw ContentTypeError(.unsupportedCompression, "compression \(raw)")
                    }
                    compression = c
                case (1...5, _): throw ContentTypeError(.malformedEncodedContent, "field \(field) has the wrong wire type")
                default: try r.skip(wire)
                }
            }
            guard let type else { throw ContentTypeError(.malformedEncodedContent, "missing type") }
            self.init(type: type, parameters: parameters, fallback: fallback, content: content, compression: compression)
        } catch let e as ContentTypeError {
            throw e
        } catch {
            throw ContentTypeError(.malformedEncodedContent, "\(error)")
        }
    }

    private static func parseType(_ bytes: [UInt8]) throws -> ContentTypeID {
        var r = ProtoReader(bytes)
        var id = ContentTypeID(authorityID: "", typeID: "", versionMajor: 0, versionMinor: 0)
        while !r.isAtEnd {
            let (field, wire) = try r.readTag()
            switch (field, wire) {
            case (1, .lengthDelimited): id.authorityID = try utf8(Array(try r.readLengthDelimited()))
            case (2, .lengthDelimited): id.typeID = try utf8(Array(try r.readLengthDelimited()))
            case (3, .varint): id.versionMajor = UInt32(truncatingIfNeeded: try r.readVarint())
            case (4, .varint): id.versionMinor = UInt32(truncatingIfNeeded: try r.readVarint())
            case (1...4, _): throw ContentTypeError(.malformedEncodedContent, "type field \(field) has the wrong wire type")
            default: try r.skip(wire)
            }
        }
        return id
    }

    private static func parseEntry(_ bytes: [UInt8]) throws -> (String, String) {
        var r = ProtoReader(bytes)
        var key = "", value = ""
        while !r.isAtEnd {
            let (field, wire) = try r.readTag()
            switch (field, wire) {
            case (1, .lengthDelimited): key = try utf8(Array(try r.readLengthDelimited()))
            case (2, .lengthDelimited): value = try utf8(Array(try r.readLengthDelimited()))
            case (1...2, _): throw ContentTypeError(.malformedEncodedContent, "parameter field \(field) has the wrong wire type")
            default: try r.skip(wire)
            }
        }
        return (key, value)
    }

    private static func utf8(_ bytes: [UInt8]) throws -> String {
        guard let s = String(validating: bytes, as: UTF8.self) else { throw ContentTypeError(.malformedEncodedContent, "string is not UTF-8") }
        return s
    }
}
