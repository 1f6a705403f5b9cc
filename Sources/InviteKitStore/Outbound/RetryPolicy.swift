/// When to send an event again, and when to stop.
///
/// An event written to a relay that does not answer `OK` within ``ackTimeout`` seconds, or that
/// is refused with a transient reason (`rate-limited:`, `auth-required:`, `error:`), or whose
/// connection dropped, is queued again after an exponential backoff: ``baseDelay`` · 2^(n−1)
/// seconds after the n-th attempt, at most ``maxDelay``. After ``maxAttempts`` writes the relay
/// is given up on (`given_up`, with the last reason). A reconnect makes every unacknowledged
/// event due again at once but does not reset its attempt count.
public struct RetryPolicy: Sendable, Hashable {
    public var baseDelay: Int64
    public var maxDelay: Int64
    public var maxAttempts: Int
    public var ackTimeout: Int64

    /// 2 s, 4 s, 8 s … capped at 5 minutes; 10 attempts (about 20 minutes of trying); 30 s for an `OK`.
    public static let standard = RetryPolicy(baseDelay: 2, maxDelay: 300, maxAttempts: 10, ackTimeout: 30)

    public init(baseDelay: Int64, maxDelay: Int64, maxAttempts: Int, ackTimeout: Int64) {
        self.baseDelay = baseDelay; self.maxDelay = maxDelay; self.maxAttempts = maxAttempts; self.ackTimeout = ackTimeout
    }

    /// Seconds to wait after the `attempts`-th failed write.
    public func backoff(afterAttempts attempts: Int) -> Int64 {
        let exponent = min(max(attempts - 1, 0), 30)
        let delay = baseDelay.multipliedReportingOverflow(by: Int64(1) << Int64(exponent))
        return delay.overflow ? maxDelay : min(delay.partialValue, maxDelay)
    }
}
