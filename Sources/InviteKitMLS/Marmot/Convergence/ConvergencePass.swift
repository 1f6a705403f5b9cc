/// One group's convergence input-collection window (`protocol-core/convergence.md`, "Convergence
/// policy", the paragraphs on `settlement_quiescence_ms` and `max_convergence_pass_ms`): a pure
/// scheduler, with the clock passed in, that decides which received Commits are resolved together
/// and when. It holds inputs; it never looks inside them and never takes part in selection, which
/// stays ``BranchSelector``'s (arrival time and pass membership must not enter the score).
///
/// - A pass opens when an input is retained while the group may start one (no own Commit waits
///   for publication: `PendingPublish` keeps inputs retained but admits them to no pass).
/// - Each selection-relevant input restarts the quiet timer; the absolute deadline, counted from
///   the opening, never moves.
/// - At the earlier of the two, ``closeIfDue(at:)`` returns the frozen batch: the exact inputs
///   admitted, in arrival order. Input retained after that belongs to the next pass.
/// - A pass holds at most ``maxBatchCount`` inputs. One more closes the current pass at once and
///   starts the next with it: the spec lets the same input be divided across passes (the result
///   must not depend on it), and a member sending Commits without end then cannot grow a buffer.
public struct ConvergencePass<Input: Sendable>: Sendable {
    /// The most inputs one pass resolves together.
    public static var maxBatchCount: Int { 32 }

    public let timing: ConvergencePassTiming
    /// Inputs retained and not yet resolved, in arrival order: the open pass's batch, or what waits
    /// for the next pass.
    public private(set) var retained: [Input] = []
    /// When the open pass started; `nil` when no pass is open.
    public private(set) var openedAt: ContinuousClock.Instant?
    private var lastRelevantAt: ContinuousClock.Instant?
    /// Whether an input of the open pass diverges from the canonical path, or disbands the group:
    /// the group is `Recovering` until the pass is resolved (`convergence.md`, "Fork detection").
    public private(set) var recovering = false

    public init(timing: ConvergencePassTiming = .v1) { self.timing = timing }

    /// Whether a pass is collecting.
    public var isOpen: Bool { openedAt != nil }

    /// Retains `input`. `canOpen` is false while an own Commit waits for publication
    /// (`PendingPublish`): the input then waits for ``openIfWaiting(at:)``. A full batch is
    /// returned at once, frozen, with `input` starting the next pass.
    public mutating func retain(_ input: Input, divergent: Bool, canOpen: Bool, at now: ContinuousClock.Instant) -> [Input]? {
        var frozen: [Input]?
        if isOpen, retained.count >= Self.maxBatchCount { frozen = close() }
        retained.append(input)
        if divergent { recovering = true }
        if isOpen {
            lastRelevantAt = now
        } else if canOpen {
            open(at: now)
        }
        return frozen
    }

    /// Opens a pass for inputs that waited while the group could not start one.
    public mutating func openIfWaiting(at now: ContinuousClock.Instant) {
        if !isOpen, !retained.isEmpty { open(at: now) }
    }

    /// When the open pass closes unless another relevant input comes first; `nil` when closed.
    public var deadline: ContinuousClock.Instant? {
        guard let openedAt, let lastRelevantAt else { return nil }
        return min(lastRelevantAt + timing.quiescence, openedAt + timing.cap)
    }

    /// The frozen batch, once the pass's deadline passed; `nil` before it (or with no pass open).
    public mutating func closeIfDue(at now: ContinuousClock.Instant) -> [Input]? {
        guard let deadline, now >= deadline else { return nil }
        return close()
    }

    private mutating func open(at now: ContinuousClock.Instant) {
        openedAt = now
        lastRelevantAt = now
    }

    private mutating func close() -> [Input] {
        let batch = retained
        retained = []
        openedAt = nil
        lastRelevantAt = nil
        recovering = false
        return batch
    }
}
