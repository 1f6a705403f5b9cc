import Foundation

extension MLSWGEngineSuites {
    static func welcome(_ entries: [[String: Any]]) -> MLSWGSuiteResult {
        var r = MLSWGSuiteResult(suite: "mlswg-welcome")
        for (i, _) in entries.enumerated() { r.skip("\(i)", "not yet implemented") }
        return r
    }

    static func passiveClient(_ entries: [[String: Any]], suite: String) -> MLSWGSuiteResult {
        var r = MLSWGSuiteResult(suite: suite)
        for (i, _) in entries.enumerated() { r.skip("\(i)", "not yet implemented") }
        return r
    }
}
