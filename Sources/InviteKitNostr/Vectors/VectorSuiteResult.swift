/// The outcome of one vector suite, as `invitekit vectors verify` prints it.
public struct VectorSuiteResult: Sendable {
    public let suite: String
    public var passed: Int = 0
    public var failed: Int = 0
    /// One line per failed case: which case, and what differed.
    public var failures: [String] = []
    /// Cases not run, counted by the reason (a feature outside the profile, never a failure).
    public var skips: [String: Int] = [:]
    /// Number of skipped cases.
    public var skipped: Int { skips.values.reduce(0, +) }

    /// Records one case skipped for `reason`.
    public mutating func skip(_ reason: String) { skips[reason, default: 0] += 1 }

    public init(suite: String) { self.suite = suite }

    public init(suite: String, passed: Int, failed: Int, failures: [String] = []) {
        self.suite = suite; self.passed = passed; self.failed = failed; self.failures = failures
    }

    /// Records one case; `body` returns nil on success or a description of the mismatch.
    public mutating func check(_ name: String, _ body: () throws -> String?) {
        do {
            if let problem = try body() { failed += 1; failures.append("\(name): \(problem)") } else { passed += 1 }
        } catch {
            failed += 1
            failures.append("\(name): threw \(error)")
        }
    }

    /// A suite whose file could not be read or had no cases: one failure, so it cannot pass empty.
    public static func unreadable(_ suite: String, _ reason: String) -> VectorSuiteResult {
        VectorSuiteResult(suite: suite, passed: 0, failed: 1, failures: ["\(suite): \(reason)"])
    }
}

/// Reads a vector file under `directory` as a JSON value.
public enum VectorFile {
    public static func load(_ directory: String, _ relative: String) throws -> JSONValue {
        let path = directory + "/" + relative
        guard let data = FileBytes.read(path) else { throw NostrError(.malformedJSON, "cannot read \(path)") }
        return try JSONParser.parse(data, maxBytes: 64 * 1024 * 1024, maxDepth: 64)
    }
}
