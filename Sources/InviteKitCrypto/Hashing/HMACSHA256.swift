/// HMAC-SHA256 (RFC 2104).
///
/// The keyed inner and outer states are computed once per key and copied per message, so a
/// reused key (NIP-44 conversation and message keys) costs two compressions less per MAC.
public struct HMACSHA256: Sendable {
    public static let byteCount = 32
    private var inner: SHA256
    private var outer: SHA256

    public init<K: ContiguousBytes>(key: K) {
        var block = [UInt8](repeating: 0, count: 64)
        key.withUnsafeBytes { k in
            if k.count > 64 {
                var h = SHA256(); h.update(bufferPointer: k)
                let d = h.finalize()
                for i in 0..<32 { block[i] = d[i] }
            } else {
                for i in 0..<k.count { block[i] = k[i] }
            }
        }
        inner = SHA256(); outer = SHA256()
        var pad = block.map { $0 ^ 0x36 }
        inner.update(pad)
        for i in 0..<64 { pad[i] = block[i] ^ 0x5c }
        outer.update(pad)
        wipe(&pad); wipe(&block)
    }

    public mutating func update<B: ContiguousBytes>(_ data: B) { inner.update(data) }
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) { inner.update(bufferPointer: bufferPointer) }

    /// The tag. The value is consumed: finalize once.
    public mutating func finalize() -> [UInt8] {
        var d = [UInt8](repeating: 0, count: 32)
        d.withUnsafeMutableBufferPointer { inner.finalize(into: $0.baseAddress!) }
        outer.update(d)
        return outer.finalize()
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

@inline(__always)
func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buf in
        for i in 0..<buf.count { buf[i] = 0 }
    }
    bytes.removeAll()
}
