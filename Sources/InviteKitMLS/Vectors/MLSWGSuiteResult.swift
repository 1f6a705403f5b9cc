import InviteKitNostr

/// The outcome of one mlswg conformance suite: passed and failed cases, and each skipped case
/// with the feature outside the Marmot profile that it needs.
public struct MLSWGSuiteResult: Sendable {
    public let suite: String
    public var passed = 0
    public var failed = 0
    /// One line per failed case.
    public var failures: [String] = []
    /// One line per skipped case: which case, and why.
    public var skips: [String] = []

    public init(suite: String) { self.suite = suite }

    public var skipped: Int { skips.count }

    /// Records one case; `body` returns nil on success or a description of the mismatch.
    public mutating func check(_ name: String, _ body: () throws -> String?) {
        do {
            if let problem = try body() { failed += 1; failures.append("\(name): \(problem)") } else { passed += 1 }
        } catch {
            failed += 1
            failures.append("\(name): threw \(error)")
        }
    }

    public mutating func skip(_ name: String, _ reason: String) { skips.append("\(name): \(reason)") }

    /// In the shape `invitekit vectors verify` prints (skips are listed among the notes, as
    /// `VectorSuiteResult` has no skip count).
    public var vectorSuiteResult: VectorSuiteResult {
        VectorSuiteResult(suite: suite + (skips.isEmpty ? "" : " (\(skips.count) skipped)"), passed: passed, failed: failed, failures: failures)
    }
}
