/// Timings of one ``RelayBench`` run. Durations are wall-clock.
public struct RelayBenchReport: Sendable, CustomStringConvertible {
    public var count: Int
    /// Building the wraps (seal + wrap: 2 NIP-44 encryptions, 2 signatures, 1 key generation each). Not relay time.
    public var wrapTime: Duration
    /// From the first EVENT to the last OK.
    public var publishTime: Duration
    public var accepted: Int
    public var rejected: Int
    /// REQ until EOSE, with the client verifying every event's signature.
    public var fetchTime: Duration
    public var fetched: Int
    /// GiftWrap.unwrapBatch over the fetched wraps.
    public var unwrapTime: Duration
    public var unwrapped: Int
    public var unwrapFailures: Int

    /// publish + fetch + unwrap (wrap creation excluded: it happens on the sender's device).
    public var endToEnd: Duration { publishTime + fetchTime + unwrapTime }

    public var wrapsPerSecond: Double {
        let s = Double(endToEnd.components.seconds) + Double(endToEnd.components.attoseconds) / 1e18
        return s > 0 ? Double(count) / s : 0
    }

    public var description: String {
        func ms(_ d: Duration) -> String {
            let v = (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) * 1000
            return String(Int(v.rounded())) + " ms"
        }
        return """
        wraps: \(count)  (build \(ms(wrapTime)), not counted)
        publish: \(ms(publishTime))  accepted \(accepted), rejected/timed out \(rejected)
        fetch:   \(ms(fetchTime))  received \(fetched)
        unwrap:  \(ms(unwrapTime))  ok \(unwrapped), failed \(unwrapFailures)
        end to end: \(ms(endToEnd))  = \(Int(wrapsPerSecond.rounded())) wraps/s
        """
    }
}
