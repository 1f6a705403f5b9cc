/// A Convos-format signed invite (`SignedInvite`, PROTOCOL.md §3.2): field 1 the serialized
/// ``InvitePayload`` exactly as signed, field 2 a 65-byte recoverable ECDSA signature over
/// SHA-256 of those bytes.
///
/// ``payloadBytes`` is the source of truth; ``payload`` is parsed from it once. Re-serializing
/// a parsed payload is never used for verification.
public struct SignedInvite: Hashable, Sendable {
    /// The payload bytes as signed (verbatim).
    public let payloadBytes: [UInt8]
    /// 64-byte compact signature followed by the recovery id (0...3).
    public let signature: [UInt8]
    /// ``payloadBytes`` parsed.
    public let payload: InvitePayload
    /// Unknown `SignedInvite` fields, kept verbatim.
    public let unknownFields: [[UInt8]]

    /// Wraps already-signed bytes; parses `payloadBytes`.
    public init(payloadBytes: [UInt8], signature: [UInt8], unknownFields: [[UInt8]] = []) throws(InviteError) {
        do {
            self.payload = try InvitePayload(serializedBytes: payloadBytes)
        } catch {
            throw InviteError(.malformedProtobuf, "payload: \(error.code.rawValue)")
        }
        guard payload.relays.count <= InvitePayload.maxRelays else {
            throw InviteError(.tooManyRelays, "\(payload.relays.count) relays; at most \(InvitePayload.maxRelays) (InvitePayload.maxRelays)")
        }
        // Checked here as well as in verify(): an invite without a real signature is not an
        // invite, and refusing it when parsing keeps decode → encode → decode a fixed point.
        guard signature.count == 65 else { throw InviteError(.invalidSignature, "signature must be 65 bytes") }
        self.payloadBytes = payloadBytes
        self.signature = signature
        self.unknownFields = unknownFields
    }
}
