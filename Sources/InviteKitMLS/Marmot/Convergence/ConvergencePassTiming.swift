/// The two bounds of a convergence pass's collection window (`protocol-core/convergence.md`,
/// `settlement_quiescence_ms` and `max_convergence_pass_ms`). They decide only when a batch is
/// resolved, never which branch wins (the spec requires that dividing the same input across passes
/// changes no result), so a caller may shorten them, as the test suite does; ``v1`` is the policy's.
public struct ConvergencePassTiming: Sendable, Hashable {
    /// Quiet time after the last selection-relevant input before the pass closes.
    public var quiescence: Duration
    /// The longest a pass collects, from its start; later input never extends it.
    public var cap: Duration

    public init(quiescence: Duration, cap: Duration) {
        self.quiescence = quiescence
        self.cap = max(cap, quiescence)
    }

    /// Convergence policy v1 (``ConvergencePolicy/v1``): 1,000 ms of quiet, 5,000 ms at most.
    public static let v1 = ConvergencePassTiming(quiescence: .milliseconds(Int64(ConvergencePolicy.v1.settlementQuiescenceMilliseconds)),
                                                 cap: .milliseconds(Int64(ConvergencePolicy.v1.maxConvergencePassMilliseconds)))
}
