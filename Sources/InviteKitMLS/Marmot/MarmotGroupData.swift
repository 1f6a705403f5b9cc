import InviteKitCrypto

/// A Marmot group's shared state, read from and written to its GroupContext in either profile
/// (PROTOCOL §5.3, §5.12):
/// - ``MarmotWireProfile/mip``: the Marmot Group Data extension `0xf2ee` (MIP-01) in the layout
///   MDK 0.8.0 writes (version 2; ``MarmotGroupData+Codec.swift``):
///
///       struct {
///           uint16 version;                  // 2; 0 is refused, newer is read as far as known
///           opaque nostr_group_id[32];       // the `h` tag of kind-445 events
///           opaque name<V>; opaque description<V>;          // UTF-8
///           opaque admin_pubkeys<V>;         // n × 32-byte x-only Nostr keys, concatenated
///           opaque relays<V>;                // a vector of opaque url<V> (UTF-8 ws/wss URLs)
///           opaque image_hash<V>; opaque image_key<V>; opaque image_nonce<V>; opaque image_upload_key<V>;
///       } NostrGroupData;
///
///   Every field is always present; "absent" image fields are empty vectors. Admins and relays
///   are written sorted and unique; the reader accepts any order but refuses duplicates.
/// - ``MarmotWireProfile/current``: app components in the GroupContext's `app_data_dictionary`
///   (``MarmotGroupData+Components.swift``): profile `0x8001`, image `0x8002`, admins `0x8003`,
///   routing `0x8004`, retention `0x8005`, lifecycle `0x800c`, invite links `0x800e`, and the policies this member carries
///   without acting on them (`0x8006`, `0x800b`).
public struct MarmotGroupData: Sendable {
    /// The version MDK 0.8.0 writes.
    public static let currentVersion: UInt16 = 2

    /// Which profile the group speaks; fixed for the group's life.
    public var profile: MarmotWireProfile
    /// The `0xf2ee` layout version (MIP profile only).
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
    /// The image's media type (current profile, component `0x8002`).
    public var imageMediaType: String?
    /// Disappearing messages, seconds; `nil` when the group has no `0x8005` (current profile).
    public var retentionSeconds: UInt64?
    /// `0x800c` (current profile; `nil` for a group that predates it).
    public var lifecycle: GroupLifecycleV1?
    /// `0x800e`, the invite-link generations (current profile; `nil` until a Commit enables the
    /// feature, after which it stays, possibly empty; PROTOCOL §5.14.14).
    public var inviteLinks: InviteLinksV1?
    /// Components this member carries and validates without acting on them (`0x8006`, `0x800b`,
    /// `0x8007`), by id, in their wire bytes (current profile).
    public var carriedComponents: [UInt16: [UInt8]]
    /// The group's required component ids (current profile): `0x8009` and every component with
    /// state.
    public var requiredComponents: ComponentsList

    public init(profile: MarmotWireProfile = .mip, version: UInt16 = currentVersion, nostrGroupID: [UInt8], name: String, description: String = "",
                admins: [[UInt8]], relays: [String], imageHash: [UInt8]? = nil, imageKey: SecureBytes? = nil,
                imageNonce: [UInt8]? = nil, imageUploadKey: SecureBytes? = nil) {
        self.profile = profile
        self.version = version
        self.carriedComponents = [:]
        self.requiredComponents = ComponentsList([])
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

    /// A new group's data with a `nostr_group_id` drawn from `rng`. A current-profile group gets
    /// what MDK 0.9.14 and its app put in a new group (`cgka-engine/src/group_lifecycle.rs:300-345`,
    /// `marmot-app/src/client/mod.rs:1241-1260`): profile, admins, routing, lifecycle `active`,
    /// the agent-text-stream and media v2 default policies, and retention when `retentionSeconds`
    /// is given.
    public static func create(profile: MarmotWireProfile = .current, name: String, description: String = "", admins: [[UInt8]],
                              relays: [String], retentionSeconds: UInt64? = nil, rng: RandomSource = SystemRandom()) throws -> MarmotGroupData {
        var data = MarmotGroupData(profile: profile, nostrGroupID: rng.bytes(32), name: name, description: description, admins: admins, relays: relays)
        if profile == .current {
            data.lifecycle = .active
            data.retentionSeconds = retentionSeconds
            data.carriedComponents = [ComponentID.agentTextStream: AgentTextStreamPolicyV1.appDefault.encoded,
                                      ComponentID.encryptedMediaV2: EncryptedMediaPolicyV2.defaultPolicy.encoded]
            data.requiredComponents = data.componentsWithState
        } else if retentionSeconds != nil {
            throw MLSError(.invalidGroupData, "message retention needs the current profile")
        }
        try data.validate()
        return data
    }

    /// Checks what the wire form cannot express or MDK refuses: a 32-byte `nostr_group_id`, version
    /// not 0, 32-byte admin keys without duplicates, relay URLs MDK parses, and image field lengths.
    public func validate() throws {
        if profile == .current { return try validateComponents() }
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

    /// The `0xf2ee` extension as it sits in a MIP-profile GroupContext.
    public func groupContextExtension() throws -> MLSExtension {
        guard profile == .mip else { throw MLSError(.profileMismatch, "a current-profile group has no 0xf2ee extension") }
        try validate()
        return MLSExtension(type: MarmotProfile.groupDataExtensionType, data: tlsSerialized)
    }

    /// The GroupContext extensions of a new group of this profile: MIP `[0xf2ee,
    /// required_capabilities]`; current `[required_capabilities, app_data_dictionary]`.
    public func groupContextExtensions() throws -> [MLSExtension] {
        switch profile {
        case .mip: return [try groupContextExtension(), MarmotProfile.requiredCapabilities()]
        case .current: return [MarmotProfile.currentRequiredCapabilities(), try appDataDictionary().extension]
        }
    }

    /// Reads a GroupContext: the `0xf2ee` extension (exactly one) of a MIP group, or the
    /// components of a current-profile group. A GroupContext of neither profile is refused (MDK
    /// v0.9.14 `account_identity_proof.rs:517`: "group requires neither").
    public init(extensions: [MLSExtension]) throws {
        switch try MarmotWireProfile.of(groupContextExtensions: extensions) {
        case .mip:
            let found = extensions.filter { $0.extensionType == MarmotProfile.groupDataExtensionType }
            guard found.count == 1 else { throw MLSError(.invalidGroupData, "\(found.count) 0xf2ee extensions") }
            try self.init(tlsSerialized: found[0].data)
        case .current:
            guard let dictionary = try AppDataDictionary(extensions: extensions) else { throw MLSError(.invalidGroupData, "no app_data_dictionary") }
            try self.init(components: dictionary, extensions: extensions)
        case nil:
            throw MLSError(.invalidGroupData, "group requires neither 0xf2ee nor the current profile's 0x8009")
        }
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
        return a.profile == b.profile && a.version == b.version && a.imageMediaType == b.imageMediaType && a.retentionSeconds == b.retentionSeconds
            && a.lifecycle == b.lifecycle && a.inviteLinks == b.inviteLinks && a.carriedComponents == b.carriedComponents && a.requiredComponents == b.requiredComponents
            && a.nostrGroupID == b.nostrGroupID && a.name == b.name && a.description == b.description
            && a.admins == b.admins && a.relays == b.relays && a.imageHash == b.imageHash && a.imageNonce == b.imageNonce
            && same(a.imageKey, b.imageKey) && same(a.imageUploadKey, b.imageUploadKey)
    }
}
