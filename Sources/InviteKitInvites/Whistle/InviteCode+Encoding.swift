import InviteKitCrypto
import InviteKitNostr

extension InviteCode {
    /// `{"relay":…,"inviterNpub":…,"groupId":…}`: keys in exactly this order, no whitespace,
    /// strings escaped minimally (`\"`, `\\`, and control characters; `/` and non-ASCII as is).
    /// Any JSON decoder, Whistle's included, reads it.
    public var canonicalJSON: String {
        "{\"relay\":" + Self.quote(relay) + ",\"inviterNpub\":" + Self.quote(inviterNpub)
            + ",\"groupId\":" + Self.quote(groupId) + "}"
    }

    /// The code: standard base64 with `=` padding of ``canonicalJSON``.
    public var code: String { Base64.encode(Array(canonicalJSON.utf8), alphabet: .standard, padded: true) }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// Decodes a code tolerantly: padded or unpadded, standard or URL-safe alphabet, surrounding
    /// whitespace, keys in any order, escaped slashes, extra keys. Refuses, each with its own
    /// code: input over ``maxInputLength`` (`input_too_large`), non-base64 (`invalid_encoding`),
    /// non-JSON or a non-object (`invalid_json`), nesting over ``maxJSONDepth``
    /// (`json_too_deep`), a repeated key (`duplicate_key`), a missing key (`missing_key`), a
    /// non-string value (`non_string_value`), an npub that is not a valid key (`invalid_npub`).
    public init(code: String) throws(InviteError) {
        guard code.utf8.count <= Self.maxInputLength else {
            throw InviteError(.inputTooLarge, "\(code.utf8.count) bytes, limit \(Self.maxInputLength)")
        }
        guard let json = Base64.decodeLenient(code), !json.isEmpty else { throw InviteError(.invalidEncoding, "not base64") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(json, maxBytes: Self.maxInputLength, maxDepth: Self.maxJSONDepth)
        } catch {
            switch error.code {
            case .jsonTooDeep: throw InviteError(.jsonTooDeep, "deeper than \(Self.maxJSONDepth)")
            case .jsonDuplicateKey: throw InviteError(.duplicateKey)
            case .jsonTooLarge: throw InviteError(.inputTooLarge)
            default: throw InviteError(.invalidJSON, error.code.rawValue)
            }
        }
        guard case .object = value else { throw InviteError(.invalidJSON, "not an object") }
        func field(_ key: String) throws(InviteError) -> String {
            guard let v = value[key] else { throw InviteError(.missingKey, key) }
            guard let s = v.stringValue else { throw InviteError(.nonStringValue, key) }
            return s
        }
        let relay = try field("relay")
        let npub = try field("inviterNpub")
        let groupId = try field("groupId")
        guard Self.isValidNpub(npub) else { throw InviteError(.invalidNpub) }
        self.init(relay: relay, inviterNpub: npub, groupId: groupId)
    }
}
