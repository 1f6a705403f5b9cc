import InviteKitNostr

/// Reads a vector file under `directory` as a JSON value.
package enum VectorFile {
    package static func load(_ directory: String, _ relative: String) throws -> JSONValue {
        let path = directory + "/" + relative
        guard let data = FileBytes.read(path) else { throw NostrError(.malformedJSON, "cannot read \(path)") }
        return try JSONParser.parse(data, maxBytes: 64 * 1024 * 1024, maxDepth: 64)
    }
}
