import InviteKitCrypto

/// A failure encoding or decoding content or a sealed message: the InviteKit module's one
/// layer error (``InviteKitError`` is the taxonomy every layer maps into). `code` is stable.
public typealias ContentTypeError = CodedFailure<ContentTypeErrorCodes.Code>

/// The namespace of ``ContentTypeError``'s codes.
public enum ContentTypeErrorCodes {
    public enum Code: String, FailureCode {
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
        // Sealed messages (``SealedMessageError``): an opened gift wrap that is not a usable
        // InviteKit message.
        case malformed = "sealed_malformed"
        case unsupportedVersion = "sealed_unsupported_version"
        /// The payload names an author other than the gift's sender (spoofing).
        case senderMismatch = "sealed_sender_mismatch"
        case missingContentType = "sealed_missing_content_type"
    }
}
