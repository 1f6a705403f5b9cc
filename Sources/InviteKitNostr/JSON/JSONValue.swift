/// A parsed JSON value. Objects keep member order and have unique keys (the parser rejects
/// duplicates, which would otherwise let two readers see two different events).
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's literal text, so integers beyond 2^53 are not silently rounded.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: [JSONMember]? { if case .object(let o) = self { return o } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// The value as an integer, when it is a number literal with no fraction or exponent.
    public var int64Value: Int64? {
        guard case .number(let text) = self else { return nil }
        return Int64(text)
    }

    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public let key: String
    public let value: JSONValue
    public init(_ key: String, _ value: JSONValue) { self.key = key; self.value = value }
}
