/// The outcome of one vector suite, as `invitekit vectors verify` prints it and the tests assert
/// it: the one result type of every suite runner.
package struct VectorSuiteResult: Sendable, Hashable {
    package let suite: String
    package var passed: Int = 0
    package var failed: Int = 0
    /// One line per failed case: which case, and what differed.
    package var failures: [String] = []
    /// Cases not run, counted by the reason (a feature outside the profile, never a failure).
    package var skips: [String: Int] = [:]
    /// Number of skipped cases.
    package var skipped: Int { skips.values.reduce(0, +) }

    /// Records one case skipped for `reason`.
    package mutating func skip(_ reason: String) { skips[reason, default: 0] += 1 }

    package init(suite: String) { self.suite = suite }

    package init(suite: String, passed: Int, failed: Int, failures: [String] = []) {
        self.suite = suite; self.passed = passed; self.failed = failed; self.failures = failures
    }

    /// Records one case; `body` returns nil on success or a description of the mismatch.
    package mutating func check(_ name: String, _ body: () throws -> String?) {
        do {
            if let problem = try body() { failed += 1; failures.append("\(name): \(problem)") } else { passed += 1 }
        } catch {
            failed += 1
            failures.append("\(name): threw \(error)")
        }
    }

    /// Records one case's outcome: `failure` is nil when it passed.
    package mutating func record(_ name: String, _ failure: String?) {
        if let failure { failed += 1; failures.append("\(name): \(failure)") } else { passed += 1 }
    }

    /// Records a case that is not run, with the reason (cases are counted per reason).
    package mutating func skip(_ name: String, because reason: String) { skip(reason) }

    /// A suite whose file could not be read or had no cases: one failure, so it cannot pass empty.
    package static func unreadable(_ suite: String, _ reason: String) -> VectorSuiteResult {
        VectorSuiteResult(suite: suite, passed: 0, failed: 1, failures: ["\(suite): \(reason)"])
    }
}
