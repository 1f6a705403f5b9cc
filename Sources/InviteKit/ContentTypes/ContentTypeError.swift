import InviteKitCrypto

/// A failure encoding or decoding content. `code` is stable.
public struct ContentTypeError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        case invalidContentTypeID = "content_invalid_type_id"
        case malformedEncodedContent = "content_malformed_encoded_content"
        case unsupportedCompression = "content_unsupported_compression"
        case decompressionFailed = "content_decompression_failed"
        case unknownContentType = "content_unknown_type"
        case wrongContentType = "content_wrong_type"
        /// The codec received no bytes.
        case emptyContent = "content_empty"
        /// The bytes are not the JSON the codec expects.
        case invalidJSONFormat = "content_invalid_json_format"
    }
    public let code: Code
    public let detail: String
    public init(_ code: Code, _ detail: String = "") { self.code = code; self.detail = detail }
    public var description: String { detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)" }
}

extension ContentTypeError: CodedError { public var codeName: String { code.rawValue } }
