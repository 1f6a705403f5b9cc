import InviteKitCrypto

/// `marmot.group.blossom.image.v1`, component `0x8002` (`app-components/group-blossom-image-v1.md`;
/// MDK v0.9.14 `crates/traits/src/app_components/blossom_image.rs:48`): the encrypted group image.
///
///     struct { opaque image_hash<0..32>; opaque image_key<0..32>; opaque image_nonce<0..12>;
///              opaque image_upload_key<0..32>; opaque media_type<0..128>; } MarmotGroupBlossomImageV1;
///
/// Absent: all five empty. Present: 32, 32, 12, 32 bytes and a lowercase media type
/// (`image/jpg` is written `image/jpeg`). The keys are secrets every member can read.
public struct BlossomImageV1: Sendable {
    public var hash: [UInt8]
    public var key: SecureBytes
    public var nonce: [UInt8]
    public var uploadKey: SecureBytes
    public var mediaType: String

    public init(hash: [UInt8], key: SecureBytes, nonce: [UInt8], uploadKey: SecureBytes, mediaType: String) throws {
        self.hash = hash
        self.key = key
        self.nonce = nonce
        self.uploadKey = uploadKey
        self.mediaType = Self.canonicalMediaType(mediaType)
        try validate()
    }

    static func canonicalMediaType(_ t: String) -> String {
        let lower = t.lowercased()
        return lower == "image/jpg" ? "image/jpeg" : lower
    }

    func validate() throws {
        guard hash.count == 32, key.count == 32, nonce.count == 12, uploadKey.count == 32 else {
            throw MLSError(.invalidComponent, "group image fields must be 32, 32, 12 and 32 bytes")
        }
        guard (1...128).contains(mediaType.utf8.count), mediaType == Self.canonicalMediaType(mediaType) else {
            throw MLSError(.invalidComponent, "group image media type must be 1...128 canonical lowercase bytes")
        }
    }

    /// The bytes of `image`, or of "no image" (five empty fields, `0000000000`).
    public static func encode(_ image: BlossomImageV1?) -> [UInt8] {
        ComponentCodec.encode { w in
            guard let image else { for _ in 0..<5 { w.writeOpaque([UInt8]()) }; return }
            w.writeOpaque(image.hash)
            image.key.withUnsafeBytes { w.writeOpaque($0) }
            w.writeOpaque(image.nonce)
            image.uploadKey.withUnsafeBytes { w.writeOpaque($0) }
            w.writeOpaque(Array(image.mediaType.utf8))
        }
    }

    /// Reads the component: `nil` for "no image".
    public static func decode(_ bytes: [UInt8]) throws -> BlossomImageV1? {
        try ComponentCodec.decode(bytes, "group image") { r -> BlossomImageV1? in
            let hash = try r.readOpaque()
            var key = try r.readOpaque()
            defer { zeroize(&key) }
            let nonce = try r.readOpaque()
            var upload = try r.readOpaque()
            defer { zeroize(&upload) }
            let media = try ComponentCodec.readText(&r, max: 128, "media_type")
            if hash.isEmpty, key.isEmpty, nonce.isEmpty, upload.isEmpty, media.isEmpty { return nil }
            let image = BlossomImageV1(unchecked: hash, SecureBytes(copying: key), nonce, SecureBytes(copying: upload), media)
            try image.validate()
            return image
        }
    }

    private init(unchecked hash: [UInt8], _ key: SecureBytes, _ nonce: [UInt8], _ uploadKey: SecureBytes, _ mediaType: String) {
        self.hash = hash
        self.key = key
        self.nonce = nonce
        self.uploadKey = uploadKey
        self.mediaType = mediaType
    }
}
