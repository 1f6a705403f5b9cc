extension SignedInvite {
    /// `SignedInvite` wire form: 1 payload, 2 signature, then unknown fields.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter(capacity: payloadBytes.count + signature.count + 8)
        if !payloadBytes.isEmpty { w.writeBytes(1, payloadBytes) }
        if !signature.isEmpty { w.writeBytes(2, signature) }
        for raw in unknownFields { w.writeRaw(raw) }
        return w.bytes
    }

    /// Parses the wire form. Structural problems surface as ``InviteError/Code/malformedProtobuf``
    /// with the ``ProtobufError`` code in the detail.
    public init(serializedBytes bytes: [UInt8]) throws(InviteError) {
        var payload: [UInt8] = []
        var signature: [UInt8] = []
        var unknown: [[UInt8]] = []
        var r = ProtoReader(bytes)
        do throws(ProtobufError) {
            while !r.isAtEnd {
                let start = r.offset
                let (field, wt) = try r.readTag()
                switch field {
                case 1, 2:
                    guard wt == .lengthDelimited else { throw ProtobufError(.wrongWireType, "field \(field)") }
                    let value = Array(try r.readLengthDelimited())
                    if field == 1 { payload = value } else { signature = value }
                default:
                    try r.skip(wt)
                    unknown.append(r.rawField(from: start))
                }
            }
        } catch {
            throw InviteError(.malformedProtobuf, "signed invite: \(error.code.rawValue)")
        }
        try self.init(payloadBytes: payload, signature: signature, unknownFields: unknown)
    }
}
