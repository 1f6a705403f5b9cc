/// Why a JSON text was refused. `offset` is the byte where the parser stopped.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case tooLarge = "json_too_large"
        case tooDeep = "json_too_deep"
        case invalidUTF8 = "json_invalid_utf8"
        case syntax = "json_syntax"
        case duplicateKey = "json_duplicate_key"
        case trailingData = "json_trailing_data"
    }
    public let code: Code
    public let offset: Int
    public var description: String { "\(code.rawValue) at byte \(offset)" }
}
