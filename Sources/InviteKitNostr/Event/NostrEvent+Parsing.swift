import InviteKitCrypto

extension NostrEvent {
    /// Largest event JSON accepted by default (a NIP-44 extended gift wrap of a 1 MiB rumor fits).
    public static let defaultMaxJSONBytes = JSONParser.defaultMaxBytes

    /// Parses and shape-checks an event: hex lengths, kind range, integer `created_at`,
    /// tags as arrays of strings. It does not check the id or signature: see ``verify()``.
    /// - Parameter requireSignature: `false` accepts rumors (no `sig`).
    public init<B: ContiguousBytes>(json: B, requireSignature: Bool = true, maxBytes: Int = defaultMaxJSONBytes) throws(NostrError) {
        let size = json.withUnsafeBytes { $0.count }
        guard size <= maxBytes else { throw NostrError(.tooLarge, "event is \(size) bytes; the cap is \(maxBytes)") }
        let value: JSONValue
        do { value = try JSONParser.parse(json, maxBytes: maxBytes, maxDepth: 4) } catch {
            throw NostrError(.malformedJSON, error.description)
        }
        try self.init(jsonValue: value, requireSignature: requireSignature)
    }

    public init(json: String, requireSignature: Bool = true, maxBytes: Int = defaultMaxJSONBytes) throws(NostrError) {
        try self.init(json: Array(json.utf8), requireSignature: requireSignature, maxBytes: maxBytes)
    }

    /// Builds an event from an already-parsed JSON object (e.g. inside a relay message).
    public init(jsonValue value: JSONValue, requireSignature: Bool = true) throws(NostrError) {
        guard case .object = value else { throw NostrError(.malformedJSON, "event is not a JSON object") }
        func field(_ name: String) throws(NostrError) -> JSONValue {
            guard let v = value[name] else { throw NostrError(.missingField, "missing \"\(name)\"") }
            return v
        }
        func hexField(_ name: String, bytes: Int) throws(NostrError) -> String {
            guard let s = try field(name).stringValue else { throw NostrError(.invalidField, "\"\(name)\" is not a string") }
            guard s.utf8.count == bytes * 2, s.utf8.allSatisfy({ Self.isLowerHex($0) }) else {
                throw NostrError(.invalidField, "\"\(name)\" must be \(bytes * 2) lowercase hex characters")
            }
            return s
        }
        let id = try hexField("id", bytes: 32)
        let pubkey = try hexField("pubkey", bytes: 32)
        guard let createdAt = try field("created_at").int64Value, createdAt >= 0 else {
            throw NostrError(.invalidField, "\"created_at\" must be a non-negative integer")
        }
        guard let kind64 = try field("kind").int64Value, NostrEvent.kindRange.contains(kind64) else {
            throw NostrError(.invalidField, "\"kind\" must be an integer in \(NostrEvent.kindRange)")
        }
        guard let tagArray = try field("tags").arrayValue else { throw NostrError(.invalidField, "\"tags\" is not an array") }
        var tags = [[String]]()
        tags.reserveCapacity(tagArray.count)
        for (i, t) in tagArray.enumerated() {
            guard let items = t.arrayValue else { throw NostrError(.invalidField, "tag \(i) is not an array") }
            var tag = [String]()
            tag.reserveCapacity(items.count)
            for item in items {
                guard let s = item.stringValue else { throw NostrError(.invalidField, "tag \(i) holds a non-string") }
                tag.append(s)
            }
            tags.append(tag)
        }
        guard let content = try field("content").stringValue else { throw NostrError(.invalidField, "\"content\" is not a string") }
        var sig: String?
        if value["sig"] != nil {
            sig = try hexField("sig", bytes: 64)
        } else if requireSignature {
            throw NostrError(.missingField, "missing \"sig\"")
        }
        self.init(id: id, pubkey: pubkey, createdAt: createdAt, kind: Int(kind64), tags: tags, content: content, sig: sig)
    }

    @inline(__always)
    static func isLowerHex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) }
}
