import InviteKitCrypto

/// One leaf's hash ratchet (RFC 9420 §9.1): the secret for the next unused generation, and the
/// keys of skipped generations kept for out-of-order delivery (RFC 9420 §9.4).
struct HashRatchet: Sendable {
    /// Next generation not yet derived; `nil` secret once generation 2^32-1 was used.
    var nextGeneration: UInt32
    var secret: SecureBytes?
    /// Keys of generations below `nextGeneration` that were skipped and not yet used.
    var retained: [UInt32: RatchetKey]

    init(secret: SecureBytes) {
        nextGeneration = 0
        self.secret = secret
        retained = [:]
    }

    init(nextGeneration: UInt32, secret: SecureBytes?, retained: [UInt32: RatchetKey]) {
        self.nextGeneration = nextGeneration
        self.secret = secret
        self.retained = retained
    }

    /// Derives generation `nextGeneration`'s key and nonce and advances; the old secret is dropped
    /// (wiped) so that earlier keys cannot be recomputed (RFC 9420 §9.2).
    private mutating func step(aead: HPKEAEAD, hashLength: Int) throws -> RatchetKey {
        guard let s = secret else { throw MLSError(.generationUnavailable, "ratchet exhausted") }
        let g = nextGeneration
        let key = RatchetKey(generation: g,
                             key: MLSCrypto.deriveTreeSecret(secret: s, label: "key", generation: g, length: aead.keyCount),
                             nonce: MLSCrypto.deriveTreeSecret(secret: s, label: "nonce", generation: g, length: aead.nonceCount))
        if g == UInt32.max {
            secret = nil
        } else {
            secret = MLSCrypto.deriveTreeSecret(secret: s, label: "secret", generation: g, length: hashLength)
            nextGeneration = g + 1
        }
        return key
    }

    /// The next generation, for sending.
    mutating func next(aead: HPKEAEAD, hashLength: Int) throws -> RatchetKey {
        try step(aead: aead, hashLength: hashLength)
    }

    /// The key for `generation`, consumed: it can be returned only once (RFC 9420 §9.2).
    mutating func consume(generation: UInt32, aead: HPKEAEAD, hashLength: Int, window: UInt32, maxForward: UInt32) throws -> RatchetKey {
        if generation < nextGeneration || secret == nil {
            guard let k = retained.removeValue(forKey: generation) else {
                throw MLSError(.generationUnavailable, "generation \(generation) already used or outside the retained window")
            }
            return k
        }
        guard generation - nextGeneration <= maxForward else {
            throw MLSError(.generationTooFar, "generation \(generation) is \(generation - nextGeneration) past the next expected \(nextGeneration)")
        }
        while nextGeneration < generation {
            let skipped = try step(aead: aead, hashLength: hashLength)
            if generation - skipped.generation <= window { retained[skipped.generation] = skipped }
        }
        let key = try step(aead: aead, hashLength: hashLength)
        // Keys further back than the window are forgotten: a late message for them cannot be read.
        if generation >= window {
            let floor = generation - window
            for g in retained.keys where g < floor { retained.removeValue(forKey: g) }
        }
        return key
    }
}
