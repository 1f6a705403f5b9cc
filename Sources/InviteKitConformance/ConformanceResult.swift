/// One scenario's verdict: how many expected outcomes were checked, and each failure named.
package struct ConformanceResult: Sendable {
    package let scenario: String
    package var checked = 0
    package var failures: [String] = []

    package init(scenario: String) { self.scenario = scenario }

    package var passed: Bool { failures.isEmpty }
}
