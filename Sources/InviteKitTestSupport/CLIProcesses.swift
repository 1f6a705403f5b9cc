import Foundation
import XCTest

/// A child process's combined output, appended from the pipe's reader.
public final class ProcessOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    public init() {}
    public func append(_ d: Data) { lock.withLock { data.append(d) } }
    public var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}

/// The built `invitekit` executable as child processes of one test; ``killAll()`` (from
/// tearDown) ends whatever is still running.
public final class CLIProcesses: @unchecked Sendable {
    private let lock = NSLock()
    private var running: [Process] = []
    public let executable: URL

    /// Skips when the executable is not built next to the test bundle.
    public init() throws {
        let dirs = [URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent(),
                    Bundle.main.bundleURL.deletingLastPathComponent()]
        guard let dir = dirs.first(where: { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("invitekit").path) }) else {
            throw XCTSkip("the invitekit executable is not built next to the tests")
        }
        executable = dir.appendingPathComponent("invitekit")
    }

    /// Starts `invitekit args…` with stdout and stderr into one ``ProcessOutput``.
    public func start(_ args: [String], env: [String: String] = [:]) throws -> (Process, ProcessOutput) {
        try launch(executable, args, env: env)
    }

    /// Starts any program the same way (stdin empty), e.g. a script that drives the CLI.
    public func launch(_ program: URL, _ args: [String], env: [String: String] = [:]) throws -> (Process, ProcessOutput) {
        let p = Process()
        p.executableURL = program
        p.arguments = args
        p.standardInput = FileHandle.nullDevice
        if !env.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 } }
        let out = ProcessOutput()
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { h in out.append(h.availableData) }
        try p.run()
        lock.withLock { running.append(p) }
        return (p, out)
    }

    /// Runs `invitekit args…` to its end (a test failure if it outlives `timeout`).
    @discardableResult
    public func run(_ args: [String], timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, output: String) {
        let (p, out) = try start(args)
        XCTAssertTrue(RelayProcess.waitForExit(p, timeout: timeout), "\(args.prefix(2)) did not finish", file: file, line: line)
        Thread.sleep(forTimeInterval: 0.1)
        return (p.terminationStatus, out.text)
    }

    public func killAll() {
        for p in lock.withLock({ running }) where p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            _ = RelayProcess.waitForExit(p, timeout: 5)
        }
    }

    /// Polls `condition` every 0.2 s until it holds or `timeout` passes.
    public static func waitFor(_ timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }
}
