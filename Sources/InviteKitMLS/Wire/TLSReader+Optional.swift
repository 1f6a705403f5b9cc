extension TLSReader {
    /// `optional<T>` (RFC 9420 §2.1.1): a presence byte, 0 or 1, then the value when present.
    package mutating func readOptional<T>(_ element: (inout TLSReader) throws -> T) throws -> T? {
        switch try readUInt8() {
        case 0: return nil
        case 1: return try element(&self)
        case let b: throw MLSError(.invalidValue, "optional presence byte \(b)")
        }
    }
}

extension TLSWriter {
    /// `optional<T>` (RFC 9420 §2.1.1).
    package mutating func writeOptional<T: TLSEncodable>(_ value: T?) {
        if let value {
            writeUInt8(1)
            value.encode(to: &self)
        } else {
            writeUInt8(0)
        }
    }
}
