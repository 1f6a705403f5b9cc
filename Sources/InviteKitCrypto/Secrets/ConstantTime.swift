internal import CSodium

/// Constant-time comparisons for MACs, tags and secrets.
public enum ConstantTime {
    /// `true` when both buffers have the same length and contents; the time taken depends only
    /// on the length (libsodium `sodium_memcmp`).
    public static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if a.count == 0 { return true }
        return sodium_memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }

    /// Array convenience for ``equals(_:_:)-(UnsafeRawBufferPointer,UnsafeRawBufferPointer)``.
    public static func equals<A: ContiguousBytes, B: ContiguousBytes>(_ a: A, _ b: B) -> Bool {
        a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in equals(pa, pb) } }
    }
}

/// Anything that can lend its bytes contiguously (`[UInt8]`, `ArraySlice<UInt8>`, …).
public protocol ContiguousBytes {
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}
extension Array: ContiguousBytes where Element == UInt8 {}
extension ArraySlice: ContiguousBytes where Element == UInt8 {}
extension SecureBytes: ContiguousBytes {}
extension UnsafeRawBufferPointer: ContiguousBytes {
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try body(self) }
}
