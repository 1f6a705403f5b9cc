/// HMAC-SHA256 (RFC 2104).
///
/// The keyed inner and outer states are computed once per key and copied per message, so a
/// reused key (NIP-44 conversation and message keys) costs two compressions less per MAC.
public struct HMACSHA256: Sendable {
    public static let byteCount = 32
    private var inner: SHA256
    private var outer: SHA256

    public init<K: ContiguousBytes>(key: K) {
        self = key.withUnsafeBytes { HMACSHA256(keyBuffer: $0) }
    }

    /// Keys the MAC from raw bytes; the padded key blocks live on the stack and are wiped.
    public init(keyBuffer k: UnsafeRawBufferPointer) {
        inner = SHA256(); outer = SHA256()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            block.initialize(repeating: 0)
            if k.count > 64 {
                var h = SHA256(); h.update(bufferPointer: k)
                h.finalize(into: block.baseAddress!)
            } else if k.count > 0 {
                UnsafeMutableRawBufferPointer(block).copyMemory(from: k)
            }
            for i in 0..<64 { block[i] ^= 0x36 }
            inner.update(bufferPointer: UnsafeRawBufferPointer(block))
            for i in 0..<64 { block[i] ^= 0x36 ^ 0x5c }
            outer.update(bufferPointer: UnsafeRawBufferPointer(block))
            for i in 0..<64 { block[i] = 0 }
        }
    }

    public mutating func update<B: ContiguousBytes>(_ data: B) { inner.update(data) }
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) { inner.update(bufferPointer: bufferPointer) }

    /// The tag. The value is consumed: finalize once.
    public mutating func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { out, n in
            finalize(into: UnsafeMutableRawBufferPointer(out))
            n = 32
        }
    }

    /// Writes the 32-byte tag into `out` without allocating.
    public mutating func finalize(into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= 32)
        let p = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
        inner.finalize(into: p)
        outer.update(bufferPointer: UnsafeRawBufferPointer(start: p, count: 32))
        outer.finalize(into: p)
    }

    /// One-shot MAC.
    public static func authenticate<M: ContiguousBytes, K: ContiguousBytes>(_ message: M, key: K) -> [UInt8] {
        var h = HMACSHA256(key: key)
        h.update(message)
        return h.finalize()
    }

    /// Constant-time check of `tag` against the MAC of `message`.
    public static func isValid<T: ContiguousBytes, M: ContiguousBytes, K: ContiguousBytes>(_ tag: T, for message: M, key: K) -> Bool {
        ConstantTime.equals(authenticate(message, key: key), tag)
    }
}
