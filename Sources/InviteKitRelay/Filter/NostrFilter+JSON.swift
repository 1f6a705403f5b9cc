import InviteKitCrypto
import InviteKitNostr

extension NostrFilter {
    /// The filter object, keys in a fixed order (ids, authors, kinds, `#x` sorted, since, until, limit).
    public var jsonValue: JSONValue {
        var members = [JSONMember]()
        if let ids { members.append(JSONMember("ids", .array(ids.map { .string($0) }))) }
        if let authors { members.append(JSONMember("authors", .array(authors.map { .string($0) }))) }
        if let kinds { members.append(JSONMember("kinds", .array(kinds.map { .number(String($0)) }))) }
        for letter in tags.keys.sorted() {
            members.append(JSONMember("#" + letter, .array(tags[letter]!.map { .string($0) })))
        }
        if let since { members.append(JSONMember("since", .number(String(since)))) }
        if let until { members.append(JSONMember("until", .number(String(until)))) }
        if let limit { members.append(JSONMember("limit", .number(String(limit)))) }
        return .object(members)
    }

    public var jsonString: String { JSONWriter.serialize(jsonValue) }

    /// Parses a filter object (as typed on the command line). Unknown keys are refused rather
    /// than ignored, so a typo cannot silently widen a subscription.
    public init(jsonValue value: JSONValue) throws(RelayError) {
        guard let members = value.objectValue else { throw RelayError(.invalidFilter, "a filter is a JSON object") }
        self.init()
        func strings(_ v: JSONValue, _ key: String) throws(RelayError) -> [String] {
            guard let arr = v.arrayValue else { throw RelayError(.invalidFilter, "\"\(key)\" must be an array of strings") }
            var out = [String]()
            for item in arr {
                guard let s = item.stringValue else { throw RelayError(.invalidFilter, "\"\(key)\" must be an array of strings") }
                out.append(s)
            }
            return out
        }
        func hex64(_ v: JSONValue, _ key: String) throws(RelayError) -> [String] {
            let list = try strings(v, key)
            for s in list where !(s.utf8.count == 64 && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) {
                throw RelayError(.invalidFilter, "\"\(key)\" entries must be 64 lowercase hex characters")
            }
            return list
        }
        func integer(_ v: JSONValue, _ key: String) throws(RelayError) -> Int64 {
            guard let n = v.int64Value, n >= 0 else { throw RelayError(.invalidFilter, "\"\(key)\" must be a non-negative integer") }
            return n
        }
        for m in members {
            switch m.key {
            case "ids": ids = try hex64(m.value, "ids")
            case "authors": authors = try hex64(m.value, "authors")
            case "kinds":
                guard let arr = m.value.arrayValue else { throw RelayError(.invalidFilter, "\"kinds\" must be an array of integers") }
                var ks = [Int]()
                for item in arr {
                    guard let k = item.int64Value, NostrEvent.kindRange.contains(k) else {
                        throw RelayError(.invalidFilter, "\"kinds\" entries must be integers in \(NostrEvent.kindRange)")
                    }
                    ks.append(Int(k))
                }
                kinds = ks
            case "since": since = try integer(m.value, "since")
            case "until": until = try integer(m.value, "until")
            case "limit": limit = Int(try integer(m.value, "limit"))
            default:
                let key = m.key
                guard key.utf8.count == 2, key.hasPrefix("#"), let letter = key.unicodeScalars.last,
                      ("a"..."z").contains(letter) || ("A"..."Z").contains(letter) else {
                    throw RelayError(.invalidFilter, "unknown filter key \"\(key.prefix(32))\"")
                }
                tags[String(letter)] = try strings(m.value, key)
            }
        }
    }

    public init(json: String) throws(RelayError) {
        let value: JSONValue
        do { value = try JSONParser.parse(json, maxBytes: 1024 * 1024, maxDepth: 4) } catch {
            throw RelayError(.invalidFilter, "not JSON: \(error.description)")
        }
        try self.init(jsonValue: value)
    }
}
