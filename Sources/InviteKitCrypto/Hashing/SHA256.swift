internal import COpenSSL

/// SHA-256 (FIPS 180-4).
///
/// Backed by OpenSSL's SHA-256, which uses the CPU's SHA extensions: about 6x libsodium's
/// portable code on this machine, which NIP-44's 1 GB/s target needs.
public struct SHA256: Sendable {
    public static let byteCount = 32
    var context = SHA256_CTX()

    public init() { SHA256_Init(&context) }

    public mutating func update<B: ContiguousBytes>(_ data: B) {
        data.withUnsafeBytes { update(bufferPointer: $0) }
    }

    public mutating func update(bufferPointer buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        SHA256_Update(&context, base, buffer.count)
    }

    public mutating func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        SHA256_Final(&out, &context)
        return out
    }

    /// Writes the digest into `out` (32 bytes).
    mutating func finalize(into out: UnsafeMutablePointer<UInt8>) {
        SHA256_Final(out, &context)
    }

    public static func hash<B: ContiguousBytes>(_ data: B) -> [UInt8] {
        var h = SHA256()
        h.update(data)
        return h.finalize()
    }
}
