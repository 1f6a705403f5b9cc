import InviteKit

/// Builds the small JSON objects the CLI prints, with keys in a stable order.
struct JSONOutput {
    private var members: [JSONMember] = []

    mutating func add(_ key: String, _ value: String) { members.append(JSONMember(key, .string(value))) }
    mutating func add(_ key: String, _ value: Int64) { members.append(JSONMember(key, .number(String(value)))) }
    mutating func add(_ key: String, _ value: Int) { members.append(JSONMember(key, .number(String(value)))) }
    mutating func add(_ key: String, _ value: Bool) { members.append(JSONMember(key, .bool(value))) }
    mutating func add(_ key: String, _ value: Double) { members.append(JSONMember(key, .number(String(format: "%.3f", value)))) }
    mutating func add(_ key: String, json value: JSONValue) { members.append(JSONMember(key, value)) }

    var value: JSONValue { .object(members) }
    var string: String { JSONWriter.serialize(value) }
}

extension NostrEvent {
    /// The event as a JSON value, for embedding in larger CLI output.
    var jsonValue: JSONValue { try! JSONParser.parse(jsonBytes) }
}

/// Reads `{kind, content, tags, created_at?}` from JSON text.
func parseTemplate(_ bytes: [UInt8]) throws -> EventTemplate {
    let v = try JSONParser.parse(bytes)
    guard case .object = v else { throw CLIFailure("expected a JSON object {kind, content, tags, created_at?}") }
    guard let kind = v["kind"]?.int64Value, NostrEvent.kindRange.contains(kind) else { throw CLIFailure("\"kind\" must be an integer in \(NostrEvent.kindRange)") }
    guard let content = v["content"]?.stringValue else { throw CLIFailure("\"content\" must be a string") }
    var tags = [[String]]()
    if let t = v["tags"] {
        guard let arr = t.arrayValue else { throw CLIFailure("\"tags\" must be an array of arrays of strings") }
        for tag in arr {
            guard let items = tag.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw CLIFailure("\"tags\" must be an array of arrays of strings")
            }
            tags.append(items.map { $0.stringValue! })
        }
    }
    var createdAt: Int64?
    if let c = v["created_at"] {
        guard let n = c.int64Value, n >= 0 else { throw CLIFailure("\"created_at\" must be a non-negative integer") }
        createdAt = n
    }
    return EventTemplate(kind: Int(kind), content: content, tags: tags, createdAt: createdAt)
}
