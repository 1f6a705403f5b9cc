import InviteKitCrypto

/// Why a JSON text was refused; the detail names the byte where the parser stopped.
public typealias JSONError = CodedFailure<JSONErrorCodes.Code>

/// The namespace of ``JSONError``'s codes.
public enum JSONErrorCodes {
    public enum Code: String, FailureCode {
        case tooLarge = "json_too_large"
        case tooDeep = "json_too_deep"
        case invalidUTF8 = "json_invalid_utf8"
        case syntax = "json_syntax"
        case duplicateKey = "json_duplicate_key"
        case trailingData = "json_trailing_data"
    }
}

extension CodedFailure where C == JSONErrorCodes.Code {
    /// A failure at byte `offset` of the input.
    init(code: C, offset: Int) { self.init(code, "at byte \(offset)") }
}
