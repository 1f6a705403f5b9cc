import Foundation
import InviteKitCrypto
import XCTest

/// A child process's combined output, appended from the pipe's reader until end of file.
package final class ProcessOutput: Sendable {
    private let data = LockedBox(Data())
    /// Left at end of file: the process exited and its last bytes are in.
    private let open = DispatchGroup()
    package init() { open.enter() }
    package func append(_ d: Data) { data.withLock { $0.append(d) } }
    package var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// The reader saw end of file (called once).
    package func close() { open.leave() }

    /// Waits until every byte the process wrote is in (end of file), up to `timeout`; false
    /// when a child it started still holds the pipe.
    @discardableResult
    package func waitForEnd(timeout: TimeInterval = 10) -> Bool { open.wait(timeout: .now() + timeout) == .success }
}

/// The built `invitekit` executable as child processes of one test; ``killAll()`` (from
/// tearDown) ends whatever is still running.
package final class CLIProcesses: @unchecked Sendable {
    // Safe: `running` is only touched under `lock`; `Process` is not Sendable, so no LockedBox.
    private let lock = NSLock()
    private var running: [Process] = []
    package let executable: URL

    /// Skips when the executable is not built next to the test bundle.
    package init() throws {
        let dirs = [URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent(),
                    Bundle.main.bundleURL.deletingLastPathComponent()]
        guard let dir = dirs.first(where: { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("invitekit").path) }) else {
            throw XCTSkip("the invitekit executable is not built next to the tests")
        }
        executable = dir.appendingPathComponent("invitekit")
    }

    /// Starts `invitekit args…` with stdout and stderr into one ``ProcessOutput``.
    package func start(_ args: [String], env: [String: String] = [:]) throws -> (Process, ProcessOutput) {
        try launch(executable, args, env: env)
    }

    /// Starts any program the same way (stdin empty), e.g. a script that drives the CLI.
    package func launch(_ program: URL, _ args: [String], env: [String: String] = [:]) throws -> (Process, ProcessOutput) {
        let p = Process()
        p.executableURL = program
        p.arguments = args
        p.standardInput = FileHandle.nullDevice
        if !env.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 } }
        let out = ProcessOutput()
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { h in
            let d = h.availableData
            if d.isEmpty {
                h.readabilityHandler = nil
                out.close()
            } else {
                out.append(d)
            }
        }
        try p.run()
        lock.withLock { running.append(p) }
        return (p, out)
    }

    /// Runs `invitekit args…` to its end (a test failure if it outlives `timeout`).
    @discardableResult
    package func run(_ args: [String], timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, output: String) {
        let (p, out) = try start(args)
        XCTAssertTrue(RelayProcess.waitForExit(p, timeout: timeout), "\(args.prefix(2)) did not finish", file: file, line: line)
        // End of file proves every byte is in. A process spawned meanwhile by another thread can
        // inherit the pipe's write end (Foundation's pipes are not close-on-exec) and hold it open
        // past this one's exit; then what the exited process wrote is read as far as it came.
        out.waitForEnd()
        return (p.terminationStatus, out.text)
    }

    package func killAll() {
        for p in lock.withLock({ running }) where p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            _ = RelayProcess.waitForExit(p, timeout: 5)
        }
    }

    /// Polls `condition` every 0.2 s until it holds or `timeout` passes (``Poll/until(timeout:every:_:)``).
    package static func waitFor(_ timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        try Poll.until(timeout: timeout, condition)
    }
}
