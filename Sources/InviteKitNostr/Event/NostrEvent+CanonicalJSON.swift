extension NostrEvent {
    /// The event as RFC 8785 canonical JSON ([RFC 8785](https://www.rfc-editor.org/rfc/rfc8785)):
    /// members sorted by key (`content`, `created_at`, `id`, `kind`, `pubkey`, `sig`, `tags`), no
    /// whitespace, integers in plain decimal, and strings escaped as ``JSONWriter`` escapes them,
    /// which is RFC 8785's rule (two-character escapes for `"`, `\`, BS, TAB, LF, FF, CR; `\u00xx`
    /// for other control characters; everything else as is). Used where JSON bytes are compared,
    /// such as invite-link admin envelopes (PROTOCOL §5.14.12).
    public var canonicalJSONBytes: [UInt8] {
        var w = JSONWriter(capacity: 320 + content.utf8.count)
        w.raw("{\"content\":"); w.quoted(content)
        w.raw(",\"created_at\":"); w.integer(createdAt)
        w.raw(",\"id\":"); w.quoted(id)
        w.raw(",\"kind\":"); w.integer(kind)
        w.raw(",\"pubkey\":"); w.quoted(pubkey)
        if let sig { w.raw(",\"sig\":"); w.quoted(sig) }
        w.raw(",\"tags\":"); w.tags(tags)
        w.raw("}")
        return w.bytes
    }

    /// Reads a signed event that must be exactly its ``canonicalJSONBytes``: duplicate keys are
    /// refused by the parser, and any other spelling (order, whitespace, escapes, numbers) is
    /// `json_not_canonical`. The signature is not verified here.
    public init(canonicalJSON bytes: [UInt8], maxBytes: Int = defaultMaxJSONBytes) throws(NostrError) {
        let event = try NostrEvent(json: bytes, requireSignature: true, maxBytes: maxBytes)
        guard event.canonicalJSONBytes == bytes else { throw NostrError(.jsonNotCanonical, "event JSON is not in RFC 8785 canonical form") }
        self = event
    }
}
