/// `marmot.group.encrypted-media.v2`, component `0x800b` (`app-components/group-encrypted-media-v2.md`;
/// MDK v0.9.14 `crates/traits/src/app_components/encrypted_media_v2.rs:96`): how members share
/// encrypted media.
///
///     struct { opaque locator_kind<V>; } MediaLocatorKindV2;
///     struct { opaque locator_kind<V>; opaque base_url<1..2048>; } BlobStoreEndpointV2;
///     struct { opaque media_format<V>; MediaLocatorKindV2 allowed_locator_kinds<V>;
///              BlobStoreEndpointV2 default_blob_endpoints<V>; } EncryptedMediaPolicyV2;
///
/// `media_format` is `encrypted-media-v2`; 1–16 locator kinds and 1–16 endpoints, kept in order.
public struct EncryptedMediaPolicyV2: Hashable, Sendable {
    public struct Endpoint: Hashable, Sendable {
        public let locatorKind: String
        public let baseURL: String
        public init(locatorKind: String, baseURL: String) {
            self.locatorKind = locatorKind
            self.baseURL = baseURL
        }
    }

    public static let mediaFormat = "encrypted-media-v2"
    /// What marmot-app 0.9.14 puts in a new group when no endpoint is configured
    /// (`marmot-app/src/media/mod.rs:91-95`, URLs normalized with a trailing `/`): 148 bytes.
    public static let defaultPolicy = EncryptedMediaPolicyV2(unchecked: ["blossom-v1"], [
        Endpoint(locatorKind: "blossom-v1", baseURL: "https://blossom.divine.video/"),
        Endpoint(locatorKind: "blossom-v1", baseURL: "https://blossom.ditto.pub/"),
        Endpoint(locatorKind: "blossom-v1", baseURL: "https://cdn.hzrd149.com/"),
    ])

    public let locatorKinds: [String]
    public let endpoints: [Endpoint]

    public init(locatorKinds: [String], endpoints: [Endpoint]) throws {
        self.init(unchecked: locatorKinds, endpoints)
        try validate()
    }

    private init(unchecked kinds: [String], _ endpoints: [Endpoint]) {
        locatorKinds = kinds
        self.endpoints = endpoints
    }

    func validate() throws {
        guard (1...16).contains(locatorKinds.count), Set(locatorKinds).count == locatorKinds.count, locatorKinds.allSatisfy({ !$0.isEmpty }) else {
            throw MLSError(.invalidComponent, "media policy needs 1...16 distinct locator kinds")
        }
        guard (1...16).contains(endpoints.count) else { throw MLSError(.invalidComponent, "media policy needs 1...16 endpoints") }
        for e in endpoints {
            guard locatorKinds.contains(e.locatorKind) else { throw MLSError(.invalidComponent, "endpoint of a locator kind the policy does not allow") }
            guard (1...2048).contains(e.baseURL.utf8.count), e.baseURL.hasPrefix("https://") || e.baseURL.hasPrefix("http://") else {
                throw MLSError(.invalidComponent, "endpoint base_url must be an http(s) URL of 1...2048 bytes")
            }
        }
    }

    public var encoded: [UInt8] {
        ComponentCodec.encode { w in
            w.writeOpaque(Array(Self.mediaFormat.utf8))
            w.writeVector { v in for k in locatorKinds { v.writeOpaque(Array(k.utf8)) } }
            w.writeVector { v in
                for e in endpoints {
                    v.writeOpaque(Array(e.locatorKind.utf8))
                    v.writeOpaque(Array(e.baseURL.utf8))
                }
            }
        }
    }

    public init(decoding bytes: [UInt8]) throws {
        let (format, kinds, endpoints): (String, [String], [Endpoint]) = try ComponentCodec.decode(bytes, "encrypted media policy") { r in
            let format = try ComponentCodec.readText(&r, max: 64, "media_format")
            let kinds = try r.readVector { try ComponentCodec.readText(&$0, max: 256, "locator_kind") }
            let endpoints = try r.readVector { v in
                Endpoint(locatorKind: try ComponentCodec.readText(&v, max: 256, "locator_kind"),
                         baseURL: try ComponentCodec.readText(&v, max: 2048, "base_url"))
            }
            return (format, kinds, endpoints)
        }
        guard format == Self.mediaFormat else { throw MLSError(.invalidComponent, "media_format is not \(Self.mediaFormat)") }
        self.init(unchecked: kinds, endpoints)
        try validate()
    }
}
