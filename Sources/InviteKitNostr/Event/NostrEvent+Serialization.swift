import InviteKitCrypto

extension NostrEvent {
    /// `[0,pubkey,created_at,kind,tags,content]` with NIP-01's escaping rules, as UTF-8.
    public static func canonicalSerialization(pubkey: String, createdAt: Int64, kind: Int, tags: [[String]], content: String) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + content.utf8.count)
        w.raw("[0,")
        w.quoted(pubkey)
        w.raw(",")
        w.integer(createdAt)
        w.raw(",")
        w.integer(kind)
        w.raw(",")
        w.tags(tags)
        w.raw(",")
        w.quoted(content)
        w.raw("]")
        return w.bytes
    }

    /// The event id for these fields.
    public static func computeId(pubkey: String, createdAt: Int64, kind: Int, tags: [[String]], content: String) -> [UInt8] {
        SHA256.hash(canonicalSerialization(pubkey: pubkey, createdAt: createdAt, kind: kind, tags: tags, content: content))
    }

    /// The id recomputed from this event's fields (not the stored ``id``).
    public var computedId: String {
        Hex.encode(Self.computeId(pubkey: pubkey, createdAt: createdAt, kind: kind, tags: tags, content: content))
    }

    /// The wire form: a JSON object with NIP-01's field names. `sig` is omitted for rumors.
    public var jsonBytes: [UInt8] {
        var w = JSONWriter(capacity: 320 + content.utf8.count)
        w.raw("{\"id\":"); w.quoted(id)
        w.raw(",\"pubkey\":"); w.quoted(pubkey)
        w.raw(",\"created_at\":"); w.integer(createdAt)
        w.raw(",\"kind\":"); w.integer(kind)
        w.raw(",\"tags\":"); w.tags(tags)
        w.raw(",\"content\":"); w.quoted(content)
        if let sig { w.raw(",\"sig\":"); w.quoted(sig) }
        w.raw("}")
        return w.bytes
    }

    public var jsonString: String { String(decoding: jsonBytes, as: UTF8.self) }
}
