import Foundation
import XCTest
import InviteKitTestSupport

/// The MDK side of the interop tests: `scripts/mdk/worker.py` running inside the Debian trixie
/// chroot that `scripts/mdk/setup.sh` builds (MDK's native library needs glibc >= 2.39), spoken
/// to in JSON lines over stdin/stdout. One worker holds any number of named MDK peers.
///
/// A missing chroot skips the calling test with the reason, unless `INVITEKIT_REQUIRE_MDK=1`
/// (set by `make interop`), where it fails instead.
final class MDKWorker: @unchecked Sendable {
    /// Seconds one request may take before the worker is presumed stuck and killed.
    static let defaultTimeout: TimeInterval = 60
    /// Where the worker script lives inside the chroot; copied there on every start so a
    /// changed script never runs stale.
    static let scriptPathInChroot = "opt/invitekit/worker.py"

    static var chrootDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["MDK_CHROOT"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return PythonPeer.packageRoot.appendingPathComponent(".mdk-chroot")
    }
    static var isRequired: Bool { ProcessInfo.processInfo.environment["INVITEKIT_REQUIRE_MDK"] == "1" }

    /// Why MDK cannot run here, or nil when it can.
    static var unavailableReason: String? {
        let dir = chrootDirectory
        let marker = dir.appendingPathComponent(".invitekit-mdk-ready").path
        guard FileManager.default.fileExists(atPath: marker) else {
            return "MDK chroot not set up at \(dir.path) (run scripts/mdk/setup.sh or `make interop`)"
        }
        guard getuid() == 0 else { return "chroot needs root to run the MDK worker" }
        return nil
    }

    /// Starts a worker, or skips the test (fails it under `INVITEKIT_REQUIRE_MDK=1`) when MDK
    /// cannot run here.
    static func startOrSkip(file: StaticString = #filePath, line: UInt = #line) throws -> MDKWorker {
        if let reason = unavailableReason {
            if isRequired { throw MDKWorkerFailure(kind: .unavailable, command: "start", message: reason + " and INVITEKIT_REQUIRE_MDK=1") }
            throw XCTSkip(reason, file: file, line: line)
        }
        return try MDKWorker()
    }

    private let process = Process()
    private let stdinHandle: FileHandle
    private let lines: LineQueue
    /// Holds the worker's stderr log; removed with the worker.
    private let logDirectory: TemporaryDirectory
    private let stderrURL: URL
    private var nextID = 0
    let timeout: TimeInterval

    init(timeout: TimeInterval = MDKWorker.defaultTimeout) throws {
        // A worker that dies mid-write must surface as an error, not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        self.timeout = timeout
        let dir = Self.chrootDirectory
        let script = PythonPeer.packageRoot.appendingPathComponent("scripts/mdk/worker.py")
        let target = dir.appendingPathComponent(Self.scriptPathInChroot)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let staging = target.appendingPathExtension("\(getpid()).tmp")
        try Data(contentsOf: script).write(to: staging)
        if rename(staging.path, target.path) != 0 { throw MDKWorkerFailure(kind: .unavailable, command: "start", message: "cannot install \(target.path)") }

        let logDirectory = TemporaryDirectory(prefix: "invitekit-mdk-worker")
        self.logDirectory = logDirectory
        stderrURL = logDirectory.fileURL("stderr.log")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/chroot")
        process.arguments = [dir.path, "env", "-i", "HOME=/root", "PATH=/usr/bin:/bin",
                             "/opt/mdkvenv/bin/python", "-u", "/" + Self.scriptPathInChroot]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        stdinHandle = input.fileHandleForWriting
        lines = LineQueue(output.fileHandleForReading)
        try process.run()
        lines.start()
    }

    deinit {
        try? stdinHandle.write(contentsOf: Data("{\"cmd\":\"quit\"}\n".utf8))
        try? stdinHandle.close()
        if !RelayProcess.waitForExit(process, timeout: 5) { process.terminate() }
    }

    /// The worker's stderr so far (tracebacks of worker bugs), for failure messages.
    var stderrTail: String {
        let text = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        return String(text.suffix(2000))
    }

    /// Sends one request and waits for its reply; a refusal by MDK throws `.refused` with MDK's message.
    @discardableResult
    func call(_ command: String, _ arguments: [String: Any] = [:]) throws -> [String: Any] {
        nextID += 1
        var request = arguments
        request["id"] = nextID
        request["cmd"] = command
        var data = try JSONSerialization.data(withJSONObject: request)
        data.append(0x0A)
        do { try stdinHandle.write(contentsOf: data) } catch {
            throw MDKWorkerFailure(kind: .exited, command: command, message: "write failed: \(error); stderr: \(stderrTail)")
        }
        guard let line = lines.next(timeout: timeout) else {
            if process.isRunning { process.terminate() }
            let kind: MDKWorkerFailure.Kind = lines.isClosed ? .exited : .timeout
            throw MDKWorkerFailure(kind: kind, command: command, message: "no reply after \(timeout) s; stderr: \(stderrTail)")
        }
        guard let reply = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              reply["id"] as? Int == nextID else {
            throw MDKWorkerFailure(kind: .protocolError, command: command, message: "bad reply line: \(String(decoding: line.prefix(300), as: UTF8.self))")
        }
        guard reply["ok"] as? Bool == true else {
            throw MDKWorkerFailure(kind: .refused, command: command, message: reply["error"] as? String ?? "?",
                                   errorType: reply["error_type"] as? String)
        }
        return reply["result"] as? [String: Any] ?? [:]
    }

    /// A new MDK peer with a fresh Nostr identity (or the given secret key, hex).
    func newPeer(_ name: String, secret: String? = nil) throws -> MDKPeer {
        var args: [String: Any] = ["name": name]
        if let secret { args["secret"] = secret }
        let r = try call("new_peer", args)
        guard let pubkey = r["pubkey"] as? String else { throw MDKWorkerFailure(kind: .protocolError, command: "new_peer", message: "no pubkey") }
        return MDKPeer(worker: self, name: name, pubkey: pubkey)
    }
}
