import InviteKitCrypto

/// The Marmot Group Data extension, type 0xf2ee, in the GroupContext of every Marmot group
/// (MIP-01), in the layout MDK 0.8.0 writes (version 2):
///
///     struct {
///         uint16 version;                  // 2; 0 is refused, newer is read as far as known
///         opaque nostr_group_id[32];       // the `h` tag of kind-445 events
///         opaque name<V>;                  // UTF-8
///         opaque description<V>;           // UTF-8
///         opaque admin_pubkeys<V>;         // n × 32-byte x-only Nostr keys, concatenated
///         opaque relays<V>;                // a vector of opaque url<V> (UTF-8 ws/wss URLs)
///         opaque image_hash<V>;            // empty, or 32 bytes
///         opaque image_key<V>;             // empty, or 32 bytes (v2: a seed)
///         opaque image_nonce<V>;           // empty, or 12 bytes
///         opaque image_upload_key<V>;      // empty, or 32 bytes (v2)
///     } NostrGroupData;
///
/// Every field is always present on the wire; "absent" image fields are empty vectors. MDK keeps
/// admins and relays in sorted sets, so ``encode(to:)`` writes admins in byte order and relays in
/// UTF-8 order, without duplicates; the reader accepts any order but refuses duplicates.
public struct MarmotGroupData: Sendable {
    /// The version MDK 0.8.0 writes.
    public static let currentVersion: UInt16 = 2

    public var version: UInt16
    /// 32 bytes: the value of the `h` tag. MDK 0.8.0 draws it once at creation and never rotates it.
    public var nostrGroupID: [UInt8]
    public var name: String
    public var description: String
    /// 32-byte x-only Nostr public keys of the admins: only they may commit anything but a pure
    /// self-update or a SelfRemove (MIP-03).
    public var admins: [[UInt8]]
    /// Relay URLs the group's kind-445 events go to.
    public var relays: [String]
    /// SHA-256 of the encrypted group image (MIP-04), if any.
    public var imageHash: [UInt8]?
    /// The image encryption seed (v2; a direct key in v1). Secret: every member can read it.
    public var imageKey: SecureBytes?
    /// The image nonce (12 bytes).
    public var imageNonce: [UInt8]?
    /// The seed of the key that uploads the image (v2). Secret.
    public var imageUploadKey: SecureBytes?

    public init(version: UInt16 = currentVersion, nostrGroupID: [UInt8], name: String, description: String = "",
                admins: [[UInt8]], relays: [String], imageHash: [UInt8]? = nil, imageKey: SecureBytes? = nil,
                imageNonce: [UInt8]? = nil, imageUploadKey: SecureBytes? = nil) {
        self.version = version
        self.nostrGroupID = nostrGroupID
        self.name = name
        self.description = description
        self.admins = admins
        self.relays = relays
        self.imageHash = imageHash
        self.imageKey = imageKey
        self.imageNonce = imageNonce
        self.imageUploadKey = imageUploadKey
    }

    /// A new group's data with a `nostr_group_id` drawn from `rng`.
    public static func create(name: String, description: String = "", admins: [[UInt8]], relays: [String],
                              rng: RandomSource = SystemRandom()) throws -> MarmotGroupData {
        let data = MarmotGroupData(nostrGroupID: rng.bytes(32), name: name, description: description, admins: admins, relays: relays)
        try data.validate()
        return data
    }

    /// Checks what the wire form cannot express or MDK refuses: a 32-byte `nostr_group_id`, version
    /// not 0, 32-byte admin keys without duplicates, relay URLs MDK parses, and image field lengths.
    public func validate() throws {
        guard version != 0 else { throw MLSError(.invalidGroupData, "version 0") }
        guard nostrGroupID.count == 32 else { throw MLSError(.invalidGroupData, "nostr_group_id must be 32 bytes") }
        guard admins.allSatisfy({ $0.count == 32 }) else { throw MLSError(.invalidGroupData, "admin keys must be 32 bytes") }
        guard Set(admins).count == admins.count else { throw MLSError(.invalidGroupData, "duplicate admin key") }
        guard Set(relays).count == relays.count else { throw MLSError(.invalidGroupData, "duplicate relay") }
        for relay in relays {
            guard KeyPackageEvent.isRelayURL(relay) else { throw MLSError(.invalidGroupData, "not a ws/wss relay URL") }
        }
        try Self.checkLength(imageHash?.count, 32, "image_hash")
        try Self.checkLength(imageKey?.count, 32, "image_key")
        try Self.checkLength(imageNonce?.count, 12, "image_nonce")
        try Self.checkLength(imageUploadKey?.count, 32, "image_upload_key")
    }

    private static func checkLength(_ count: Int?, _ expected: Int, _ field: String) throws {
        if let count, count != expected { throw MLSError(.invalidGroupData, "\(field) must be empty or \(expected) bytes, is \(count)") }
    }

    /// `true` when `identity` (a 32-byte x-only key) is an admin.
    public func isAdmin(_ identity: [UInt8]) -> Bool { admins.contains(identity) }

    /// The extension as it sits in a GroupContext.
    public func groupContextExtension() throws -> MLSExtension {
        try validate()
        return MLSExtension(type: MarmotProfile.groupDataExtensionType, data: tlsSerialized)
    }

    /// Finds and reads the 0xf2ee extension among `extensions`; exactly one must be present.
    public init(extensions: [MLSExtension]) throws {
        let found = extensions.filter { $0.extensionType == MarmotProfile.groupDataExtensionType }
        guard found.count == 1 else {
            throw MLSError(.invalidGroupData, found.isEmpty ? "no 0xf2ee extension" : "\(found.count) 0xf2ee extensions")
        }
        try self.init(tlsSerialized: found[0].data)
    }
}

extension MarmotGroupData: Equatable {
    /// Compares every field; the secret image keys in constant time.
    public static func == (a: MarmotGroupData, b: MarmotGroupData) -> Bool {
        func same(_ x: SecureBytes?, _ y: SecureBytes?) -> Bool {
            switch (x, y) {
            case (nil, nil): return true
            case let (x?, y?): return x.constantTimeEquals(y)
            default: return false
            }
        }
        return a.version == b.version && a.nostrGroupID == b.nostrGroupID && a.name == b.name && a.description == b.description
            && a.admins == b.admins && a.relays == b.relays && a.imageHash == b.imageHash && a.imageNonce == b.imageNonce
            && same(a.imageKey, b.imageKey) && same(a.imageUploadKey, b.imageUploadKey)
    }
}
