internal import CSodium

/// Fixed-size secret storage that is wiped with `sodium_memzero` when the last reference goes away.
///
/// Secrets never live in a `String` or a long-lived `[UInt8]`; copy into this type as soon as
/// they are produced and borrow them with ``withUnsafeBytes(_:)``.
public final class SecureBytes: @unchecked Sendable {
    // Safe: `pointer` and `count` never change; the bytes are written only at init or through
    // `withUnsafeMutableBytes`, whose callers own the value while they derive into it.
    private let pointer: UnsafeMutableRawPointer
    /// Number of bytes held.
    public let count: Int

    /// Allocates `count` zeroed bytes.
    public init(zeroedCount count: Int) {
        self.count = count
        pointer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
    }

    /// Copies `bytes` into fresh secure storage.
    public convenience init<Bytes: Collection>(copying bytes: Bytes) where Bytes.Element == UInt8 {
        self.init(zeroedCount: bytes.count)
        let target = UnsafeMutableRawBufferPointer(start: pointer, count: bytes.count)
        // One memcpy for contiguous collections (arrays, slices); byte by byte only otherwise.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            if let base = source.baseAddress, !source.isEmpty { target.copyMemory(from: UnsafeRawBufferPointer(start: base, count: source.count)) }
        }
        if copied == nil {
            var i = 0
            for b in bytes { pointer.storeBytes(of: b, toByteOffset: i, as: UInt8.self); i += 1 }
        }
    }

    /// Fills fresh secure storage through a closure, so the secret never exists elsewhere.
    public convenience init(count: Int, initializer: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        self.init(zeroedCount: count)
        try initializer(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    deinit {
        sodium_memzero(pointer, max(count, 1))
        pointer.deallocate()
    }

    /// Borrows the secret bytes. Do not let the buffer escape.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Mutable access, for in-place derivation.
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// Constant-time equality of two secrets of the same length.
    public func constantTimeEquals(_ other: SecureBytes) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { a in other.withUnsafeBytes { b in ConstantTime.equals(a, b) } }
    }

    /// An explicit copy of the secret as plain bytes, for the few places that must export it
    /// (key export on user request, test vectors).
    public func exportBytes() -> [UInt8] { withUnsafeBytes { Array($0) } }

    /// Overwrites a plain buffer that held secret bytes with zeros (`sodium_memzero`, which the
    /// compiler cannot elide), keeping its count. The one wipe for `[UInt8]`: call it on a buffer
    /// nothing else shares, or it wipes a fresh copy and leaves the shared storage as it was.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            sodium_memzero(base, raw.count)
        }
    }
}
