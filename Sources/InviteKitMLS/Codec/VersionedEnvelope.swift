import InviteKitCrypto

/// The layout every versioned state shares (PROTOCOL.md §5.10): an optional magic, `uint8
/// version`, then the body, read to its last byte. One owner for the header's rules: a version
/// outside ``readable`` is `unsupported_version`, a wrong magic `invalid_value`, a trailing byte
/// `trailing_bytes`. States that hold secrets go through ``seal(capacity:_:)`` and
/// ``open(_:_:)``: built and read in zeroizing storage, their plain copies wiped.
package struct VersionedEnvelope: Sendable {
    /// What the bytes hold, for error messages ("group state", "pending commit").
    package let name: String
    /// The version written.
    package let version: UInt8
    /// The versions read.
    package let readable: ClosedRange<UInt8>
    /// Bytes before the version (a file's signature); empty for most states.
    package let magic: [UInt8]

    package init(_ name: String, version: UInt8, readable: ClosedRange<UInt8>? = nil, magic: [UInt8] = []) {
        self.name = name; self.version = version; self.readable = readable ?? version...version; self.magic = magic
    }

    /// Header and body as plain bytes.
    package func write(capacity: Int, _ body: (inout TLSWriter) -> Void) -> [UInt8] {
        var w = TLSWriter(capacity: capacity)
        w.writeBytes(magic)
        w.writeUInt8(version)
        body(&w)
        return w.takeBytes()
    }

    /// ``write(capacity:_:)`` into zeroizing storage; the plain buffer is wiped.
    package func seal(capacity: Int, _ body: (inout TLSWriter) -> Void) -> SecureBytes {
        var bytes = write(capacity: capacity, body)
        defer { SecureBytes.wipe(&bytes) }
        return SecureBytes(copying: bytes)
    }

    /// Checks the header, hands the body's reader and the version read to `body`, then checks
    /// that `body` read every byte.
    package func read<T>(_ bytes: [UInt8], _ body: (_ version: UInt8, _ reader: inout TLSReader) throws -> T) throws -> T {
        var r = TLSReader(bytes)
        if !magic.isEmpty {
            guard try r.readBytes(magic.count) == magic else { throw MLSError(.invalidValue, "not an InviteKit \(name)") }
        }
        let v = try r.readUInt8()
        guard readable.contains(v) else {
            throw MLSError(.unsupportedVersion, "\(name) version \(v) is not one of \(readable.lowerBound)...\(readable.upperBound)")
        }
        let value = try body(v, &r)
        try r.finish()
        return value
    }

    /// ``read(_:_:)`` of zeroizing storage. The plain copy is wiped once nothing else holds it:
    /// the reader lives only inside ``read(_:_:)``, so the wipe overwrites the one buffer.
    package func open<T>(_ data: SecureBytes, _ body: (_ version: UInt8, _ reader: inout TLSReader) throws -> T) throws -> T {
        var copy = data.exportBytes()
        defer { SecureBytes.wipe(&copy) }
        return try read(copy, body)
    }
}
