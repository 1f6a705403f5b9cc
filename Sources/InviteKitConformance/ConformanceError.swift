/// Why a scenario could not run or an outcome did not hold. `code` is stable.
package struct ConformanceError: Error, Sendable, CustomStringConvertible {
    package enum Code: String, Sendable {
        /// The file is not a scenario (or policy-case) document the runner reads.
        case malformedScenario = "malformed_scenario"
        /// A step type this runner does not implement: a failure naming it, never a silent pass.
        case unknownStep = "unknown_step"
        /// An expected-outcome type this runner does not implement.
        case unknownOutcome = "unknown_outcome"
        /// A step failed where the scenario expects it to succeed.
        case stepFailed = "step_failed"
    }

    package let code: Code
    package let message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "\(code.rawValue): \(message)" }
}
