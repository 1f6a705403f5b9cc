import InviteKitCrypto

/// A malformed protobuf message. Each way hostile bytes can be wrong has its own code.
public struct ProtobufError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable snake_case identifiers of each malformation.
    public enum Code: String, Sendable, CaseIterable {
        case truncatedVarint = "truncated_varint"
        case overlongVarint = "overlong_varint"
        case truncatedFixed = "truncated_fixed"
        case lengthPastEnd = "length_past_end"
        case wrongWireType = "wrong_wire_type"
        case groupWireType = "group_wire_type"
        case invalidWireType = "invalid_wire_type"
        case invalidFieldNumber = "invalid_field_number"
        case invalidUTF8 = "invalid_utf8"
    }

    /// What was wrong.
    public let code: Code
    /// Where or by how much, for logs.
    public let detail: String

    /// An error with `code` and an optional `detail`.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// `code: detail`.
    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}

extension ProtobufError: CodedError { public var codeName: String { code.rawValue } }
