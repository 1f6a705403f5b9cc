import Foundation
import XCTest

/// Runs the `invitekit-store-crash` executable (built next to the test bundle) for one step,
/// optionally armed with a fail point.
enum CrashChild {
    struct Result {
        let killed: Bool
        let status: Int32
        let output: String
    }

    static func executable() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for dir in candidates {
            let url = dir.appendingPathComponent("invitekit-store-crash")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw XCTSkip("invitekit-store-crash is not built next to the tests (run `swift build --build-tests`)")
    }

    static func run(_ step: String, db: String, failPoint: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = [db, step]
        var env = ProcessInfo.processInfo.environment
        env["INVITEKIT_FAILPOINT"] = failPoint ?? ""
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(killed: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
                      status: process.terminationStatus,
                      output: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
