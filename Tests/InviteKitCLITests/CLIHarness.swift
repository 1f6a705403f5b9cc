import Foundation
import XCTest

/// Runs the built `invitekit` binary. It is found from the test bundle's location, which is the
/// build products directory on Linux (`.build/debug/InviteKitPackageTests.xctest`) and on
/// macOS (`.build/debug/InviteKitPackageTests.xctest/` bundle), with the package's
/// `.build/debug` (from this file's path) and `$INVITEKIT_CLI` as fallbacks.
enum CLI {
    struct Run {
        let status: Int32
        let out: String
        let err: String
        let outBytes: [UInt8]
    }

    private final class Marker {}
    private final class Box: @unchecked Sendable { var data = Data() }

    struct NotBuilt: Error, CustomStringConvertible {
        let tried: [String]
        var description: String { "invitekit is not built; looked at \(tried.joined(separator: ", ")) (run swift build first)" }
    }

    static func binary() throws -> URL {
        var candidates = [URL]()
        if let env = ProcessInfo.processInfo.environment["INVITEKIT_CLI"] { candidates.append(URL(fileURLWithPath: env)) }
        let bundle = Bundle(for: Marker.self).bundleURL
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("invitekit"))
        candidates.append(bundle.appendingPathComponent("invitekit"))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/invitekit"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        throw NotBuilt(tried: candidates.map(\.path))
    }

    /// Runs `invitekit args…` with `stdin` (or /dev/null) and the given extra environment, in
    /// `cwd` (default: the test's own working directory).
    @discardableResult
    static func run(_ args: [String], stdin: [UInt8]? = nil, env: [String: String] = [:], cwd: String? = nil) throws -> Run {
        try exec(try binary(), args, stdin: stdin, env: env, cwd: cwd)
    }

    /// Runs `invitekit args…` under `/bin/bash -c` with `redirect` appended (e.g. `2>&-`,
    /// `>/dev/full`), for the cases a Process cannot set up. `$?` of the binary is the status.
    @discardableResult
    static func shell(_ args: [String], redirect: String, stdin: [UInt8]? = nil, env: [String: String] = [:]) throws -> Run {
        let script = "\"$0\" \"$@\" \(redirect); exit ${PIPESTATUS[0]}"
        return try exec(URL(fileURLWithPath: "/bin/bash"), ["-c", script, try binary().path] + args, stdin: stdin, env: env)
    }

    static func exec(_ exe: URL, _ args: [String], stdin: [UInt8]?, env: [String: String], cwd: String? = nil, timeout: Double = 60) throws -> Run {
        let p = Process()
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd, isDirectory: true) }
        p.executableURL = exe
        p.arguments = args
        var environment = ProcessInfo.processInfo.environment
        environment["INVITEKIT_SECRET_KEY"] = nil
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = stdin == nil ? FileHandle(forReadingAtPath: "/dev/null") : input
        try p.run()
        // A hang is a failure, not a stuck suite: the child is killed after `timeout` seconds.
        let pid = p.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        // Sanitized builds run several times slower (scripts/asan.sh sets the scale).
        let scale = Double(ProcessInfo.processInfo.environment["INVITEKIT_TEST_TIMEOUT_SCALE"] ?? "").flatMap { $0 >= 1 ? $0 : nil } ?? 1
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout * scale, execute: watchdog)
        defer { watchdog.cancel() }
        if let stdin {
            let h = input.fileHandleForWriting
            DispatchQueue.global().async {
                h.write(Data(stdin))
                try? h.close()
            }
        }
        // Read both pipes concurrently so neither fills up and blocks the child.
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        p.waitUntilExit()
        let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
        return Run(status: status, out: String(decoding: o, as: UTF8.self), err: String(decoding: errData, as: UTF8.self), outBytes: Array(o))
    }
}
