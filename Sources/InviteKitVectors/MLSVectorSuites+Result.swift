import Foundation
import InviteKitMLS

extension MLSVectorSuites {
    /// The MLS suites in the one result shape, until they move into this target (their counts
    /// carry no per-case failure lines yet).
    public static func results(directory: String) -> [VectorSuiteResult] {
        run(directory: URL(fileURLWithPath: directory)).map { VectorSuiteResult(suite: $0.suite, passed: $0.passed, failed: $0.failed) }
    }
}
