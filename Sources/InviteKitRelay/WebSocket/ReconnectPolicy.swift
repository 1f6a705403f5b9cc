import InviteKitCrypto

/// Exponential backoff with jitter for re-opening a dropped relay connection.
/// Attempt `n` (1-based) waits `min(maxDelay, initialDelay * multiplier^(n-1))`, scaled by a random
/// factor in `[1 - jitter, 1 + jitter]` so that many clients of one restarted relay do not return in step.
public struct ReconnectPolicy: Sendable, Hashable {
    public var initialDelay: Duration
    public var maxDelay: Duration
    public var multiplier: Double
    /// Fraction in 0...1.
    public var jitter: Double
    /// `nil`: retry forever (while there is work: a subscription or a queued event).
    public var maxAttempts: Int?

    public init(initialDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(30), multiplier: Double = 2,
                jitter: Double = 0.25, maxAttempts: Int? = nil) {
        self.initialDelay = initialDelay; self.maxDelay = maxDelay; self.multiplier = multiplier
        self.jitter = min(max(jitter, 0), 1); self.maxAttempts = maxAttempts
    }

    /// The wait before attempt `attempt` (1-based). `unit` is a uniform random number in [0, 1).
    public func delay(attempt: Int, unit: Double) -> Duration {
        let base = Self.seconds(initialDelay) * pow2(multiplier, max(attempt - 1, 0))
        let capped = min(base, Self.seconds(maxDelay))
        let factor = 1 - jitter + 2 * jitter * unit
        return .milliseconds(Int64((capped * factor * 1000).rounded()))
    }

    /// The wait before attempt `attempt`, with jitter drawn from `rng`.
    public func delay(attempt: Int, using rng: RandomSource = SystemRandom()) -> Duration {
        delay(attempt: attempt, unit: Double(rng.uniform(1 << 24)) / Double(1 << 24))
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    private func pow2(_ base: Double, _ exponent: Int) -> Double {
        var r = 1.0
        for _ in 0..<min(exponent, 64) { r *= base; if r > 1e9 { break } }
        return r
    }
}
