import InviteKitCrypto

/// The signed part of a request (`shared/marmot/v2/foundation/invite-link-records.md`
/// "Encoding and scope"; PROTOCOL §5.14.5):
///
///     struct {
///       InviteRequestContextV1 context;
///       uint32 revision;                       // 0..7
///       opaque previous_request_hash[32];      // zero iff revision 0
///       opaque bearer[32];
///       opaque key_package_ref[32];
///       opaque transport_offer<1..8192>;       // a canonical NostrInviteOfferV1
///     } InviteRequestTBSV1;
///
/// The bearer is a secret, held in zeroizing storage.
public struct InviteRequestTBSV1: Sendable {
    public static let maxRevision: UInt32 = 7
    public static let maxTransportOfferBytes = 8192

    public let context: InviteRequestContextV1
    public let revision: UInt32
    public let previousRequestHash: [UInt8]
    public let bearer: SecureBytes
    /// RFC 9420 MakeKeyPackageRef of the offered KeyPackage.
    public let keyPackageRef: [UInt8]
    /// The exact bytes of ``offer``.
    public let transportOffer: [UInt8]
    public let offer: NostrInviteOfferV1

    /// Checks every field (`invalid_invite_record`): revision 0…7, an all-zero previous hash
    /// exactly at revision 0, a transport offer that is a canonical ``NostrInviteOfferV1``.
    public init(context: InviteRequestContextV1, revision: UInt32, previousRequestHash: [UInt8], bearer: SecureBytes, keyPackageRef: [UInt8],
                transportOffer: [UInt8]) throws {
        let code = MLSError.Code.invalidInviteRecord
        guard revision <= Self.maxRevision else { throw MLSError(code, "revision \(revision) is above \(Self.maxRevision)") }
        try InviteLinkCodec.require(previousRequestHash, count: 32, code, "previous_request_hash")
        let zero = previousRequestHash.allSatisfy { $0 == 0 }
        guard zero == (revision == 0) else {
            throw MLSError(code, revision == 0 ? "revision 0 with a previous_request_hash" : "revision \(revision) with an all-zero previous_request_hash")
        }
        guard bearer.count == 32 else { throw MLSError(code, "bearer must be 32 bytes") }
        try InviteLinkCodec.require(keyPackageRef, count: 32, code, "key_package_ref")
        guard (1...Self.maxTransportOfferBytes).contains(transportOffer.count) else {
            throw MLSError(code, "transport_offer is \(transportOffer.count) bytes, outside 1..\(Self.maxTransportOfferBytes)")
        }
        self.offer = try NostrInviteOfferV1(decoding: transportOffer)
        self.context = context
        self.revision = revision
        self.previousRequestHash = previousRequestHash
        self.bearer = bearer
        self.keyPackageRef = keyPackageRef
        self.transportOffer = transportOffer
    }

    /// `SHA-256(bearer)`, compared with the entry's `bearer_hash`.
    public var bearerHash: [UInt8] { bearer.withUnsafeBytes { SHA256.hash($0) } }

    /// The bytes the consent signature covers.
    public var encoded: [UInt8] { InviteLinkCodec.encode { encode(to: &$0) } }

    func encode(to w: inout TLSWriter) {
        context.encode(to: &w)
        w.writeUInt32(revision); w.writeBytes(previousRequestHash)
        bearer.withUnsafeBytes { w.writeBytes($0) }
        w.writeBytes(keyPackageRef); w.writeOpaque(transportOffer)
    }

    /// Reads exactly (`invalid_invite_record`).
    public init(decoding bytes: [UInt8]) throws {
        self = try InviteLinkCodec.decode(bytes, .invalidInviteRecord, "request tbs") { try Self(from: &$0) }
    }

    init(from r: inout TLSReader) throws {
        let context = try InviteRequestContextV1(from: &r)
        let revision = try r.readUInt32()
        let previous = try InviteLinkCodec.read32(&r)
        let bearer = SecureBytes(copying: try r.readBytes(32))
        let ref = try InviteLinkCodec.read32(&r)
        let offer = try InviteLinkCodec.readOpaque(&r, 1...Self.maxTransportOfferBytes, .invalidInviteRecord, "transport_offer")
        try self.init(context: context, revision: revision, previousRequestHash: previous, bearer: bearer, keyPackageRef: ref, transportOffer: offer)
    }
}
