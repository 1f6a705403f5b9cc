import Foundation

/// Runs the independent nostr-sdk peer (scripts/peer/nostr_peer.py) in the project venv.
package enum PythonPeer {
    package static var packageRoot: URL { VectorFiles.root.deletingLastPathComponent() }
    package static var python: URL { packageRoot.appendingPathComponent(".venv/bin/python") }
    package static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: python.path) }
    /// Under CI a missing venv is a failure, not a skip (`make test` creates it).
    package static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    package struct Failure: Error, CustomStringConvertible {
        package let status: Int32
        package let stderr: String
        package var description: String { "peer exited \(status): \(stderr)" }
    }

    /// Sends `request` (a JSON object) to `command`, returns the parsed JSON reply.
    package static func call(_ command: String, _ request: [String: Any]) throws -> [String: Any] {
        let p = Process()
        p.executableURL = python
        p.arguments = [packageRoot.appendingPathComponent("scripts/peer/nostr_peer.py").path, command]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        p.standardInput = input; p.standardOutput = output; p.standardError = errors
        try p.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failure(status: p.terminationStatus, stderr: String(decoding: err, as: UTF8.self))
        }
        return try JSONSerialization.jsonObject(with: out) as! [String: Any]
    }
}
