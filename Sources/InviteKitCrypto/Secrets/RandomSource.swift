import Foundation
internal import CSodium

/// Where randomness comes from. Injectable so that vectors and tests can be replayed.
public protocol RandomSource: Sendable {
    /// Fills `buffer` with random bytes.
    func fill(_ buffer: UnsafeMutableRawBufferPointer)
}

extension RandomSource {
    /// `count` random bytes. Do not use for secrets; use ``secureBytes(_:)``.
    public func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { fill($0) }
        return out
    }

    /// `count` random bytes in zeroizing storage.
    public func secureBytes(_ count: Int) -> SecureBytes {
        SecureBytes(count: count) { fill($0) }
    }

    /// A uniform integer in `0..<upperBound`, by rejection sampling (no modulo bias).
    public func uniform(_ upperBound: UInt32) -> UInt32 {
        precondition(upperBound > 0)
        let limit = UInt32.max - (UInt32.max % upperBound)
        while true {
            var v: UInt32 = 0
            withUnsafeMutableBytes(of: &v) { fill($0) }
            if v < limit { return v % upperBound }
        }
    }
}

/// The operating system's CSPRNG through libsodium's `randombytes_buf`.
public struct SystemRandom: RandomSource {
    public init() { Sodium.ensureInitialized() }
    public func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        randombytes_buf(base, buffer.count)
    }
}

/// A deterministic stream (libsodium `randombytes_buf_deterministic`, ChaCha20 keyed by a
/// 32-byte seed) for replaying vectors and tests. Never use it for real keys.
public final class SeededRandom: RandomSource {
    private let seed: [UInt8]
    /// Sub-streams drawn so far.
    private let counter = LockedBox<UInt64>(0)

    /// `seed` is hashed to 32 bytes, so any length works.
    public init(seed: [UInt8]) {
        Sodium.ensureInitialized()
        var s = [UInt8](repeating: 0, count: 32)
        crypto_generichash(&s, 32, seed, UInt64(seed.count), nil, 0)
        self.seed = s
    }

    /// Convenience: seeds from an integer.
    public convenience init(seed: UInt64) {
        self.init(seed: withUnsafeBytes(of: seed.bigEndian) { Array($0) })
    }

    public func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        counter.withLock { counter in
            // Each call draws from its own sub-stream: seed' = H(seed || counter).
            var input = seed
            withUnsafeBytes(of: counter.bigEndian) { input.append(contentsOf: $0) }
            counter += 1
            var sub = [UInt8](repeating: 0, count: 32)
            crypto_generichash(&sub, 32, input, UInt64(input.count), nil, 0)
            randombytes_buf_deterministic(base, buffer.count, sub)
        }
    }
}
