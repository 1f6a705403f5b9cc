import Foundation
import InviteKitCrypto
import XCTest

/// A real nostr-relay (PyPI) for one test: `scripts/relay/run_relay.sh PORT DBDIR`, started on a free
/// 127.0.0.1 port with its own sqlite database, stopped (and its directory removed) in tearDown.
package final class RelayProcess: @unchecked Sendable {
    // Safe: configured and started by the test's one task, and stopped from its tearDown.
    package static let packageRoot = VectorFiles.root.deletingLastPathComponent()
    package static let script = packageRoot.appendingPathComponent("scripts/relay/run_relay.sh")
    package static let python = packageRoot.appendingPathComponent(".venv/bin/python")

    /// Skips when the venv is missing, unless `CI` is set: then it is a failure.
    package static func requireRelay(file: StaticString = #filePath, line: UInt = #line) throws {
        let fm = FileManager.default
        let ok = fm.isExecutableFile(atPath: python.path) && fm.fileExists(atPath: script.path)
        if ok { return }
        let message = "nostr-relay venv missing (\(python.path)); run scripts/peer/setup.sh"
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail(message, file: file, line: line)
            throw RelayFixtureError(message: message)
        }
        throw XCTSkip(message)
    }

    package let dbDir: URL
    package private(set) var port = 0
    /// NIP-42 on: the relay sends a challenge on connect and checks AUTH events against
    /// `ws://127.0.0.1:PORT`. The stock launcher has no switch for it, so this one imports
    /// run_relay.py and adds the `authentication` section to its generated config.
    package var requireAuth = false
    /// Extra environment for the relay (e.g. `RELAY_LOG_LEVEL=INFO`).
    package var environment: [String: String] = [:]
    private var process: Process?
    /// The directory this fixture made (none when the caller gave `dbDir`).
    private var scratch: TemporaryDirectory?

    package var url: String { "ws://127.0.0.1:\(port)" }
    package var isRunning: Bool { process?.isRunning ?? false }

    package init(dbDir: URL? = nil) throws {
        if let dbDir {
            self.dbDir = dbDir
            try FileManager.default.createDirectory(at: dbDir, withIntermediateDirectories: true)
        } else {
            let scratch = TemporaryDirectory(prefix: "invitekit-relay")
            self.scratch = scratch
            self.dbDir = scratch.url
        }
    }

    /// Starts the relay (port 0 = any free port; after a kill, the same port again) and waits for READY.
    package func start(port requested: Int? = nil, timeout: TimeInterval = 60) throws {
        var want = requested ?? port
        if requireAuth, want == 0 { want = try Self.freePort() }
        var lastError: Error?
        for _ in 0..<20 {
            do {
                try launch(port: want, timeout: timeout)
                return
            } catch let e as RelayFixtureError where e.portInUse {
                lastError = e
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        throw lastError ?? RelayFixtureError(message: "relay did not start")
    }

    private func launch(port want: Int, timeout: TimeInterval) throws {
        let p = Process()
        if requireAuth {
            let script = """
            import os, sys
            sys.path.insert(0, os.path.join(\(String(reflecting: Self.packageRoot.path)), "scripts", "relay"))
            import run_relay
            base = run_relay.build_config
            def with_auth(port, db, *rest):
                c = base(port, db, *rest)
                c["authentication"] = {"enabled": True, "relay_urls": ["ws://127.0.0.1:%d" % port]}
                return c
            run_relay.build_config = with_auth
            sys.argv = ["run_relay.py"] + sys.argv[1:]
            sys.exit(run_relay.main())
            """
            p.executableURL = Self.python
            p.arguments = ["-u", "-c", script, "--port", String(want), "--db-dir", dbDir.path]
        } else {
            p.executableURL = URL(fileURLWithPath: "/bin/bash")
            p.arguments = [Self.script.path, String(want), dbDir.path]
        }
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        p.standardOutput = out
        let logURL = dbDir.appendingPathComponent("relay.log")
        if !FileManager.default.fileExists(atPath: logURL.path) { _ = FileManager.default.createFile(atPath: logURL.path, contents: nil) }
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        p.standardError = log
        try p.run()
        let buffer = LockedData()
        let reader = out.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let d = reader.availableData
                if d.isEmpty { return }
                buffer.append(d)
            }
        }
        let readyPort = { () -> Int? in
            guard let line = buffer.firstLine(), line.hasPrefix("READY ws://127.0.0.1:") else { return nil }
            return Int(line.dropFirst("READY ws://127.0.0.1:".count))
        }
        Poll.until(timeout: timeout, every: 0.05) { readyPort() != nil || !p.isRunning }
        if let n = readyPort() {
            port = n
            process = p
            return
        }
        if !p.isRunning {
            let code = p.terminationStatus
            throw RelayFixtureError(message: "relay exited with \(code) before READY (log: \(logURL.path))", portInUse: code == 3)
        }
        kill(p.processIdentifier, SIGKILL)
        throw RelayFixtureError(message: "relay not READY within \(timeout) s (log: \(logURL.path))")
    }

    /// A port that was free a moment ago (the relay binds it right after).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RelayFixtureError(message: "socket() failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard bound else { throw RelayFixtureError(message: "bind() failed") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    package var log: String { (try? String(contentsOf: dbDir.appendingPathComponent("relay.log"), encoding: .utf8)) ?? "" }

    /// `kill -9`: no clean shutdown, as if the machine lost the process.
    package func kill9() {
        guard let p = process else { return }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        Self.waitForExit(p, timeout: 10)
        process = nil
    }

    /// SIGTERM, then SIGKILL after 2 s. (A child spawned from a Swift concurrency thread inherits its
    /// blocked signal mask, so SIGTERM may never be delivered; SIGKILL cannot be blocked.)
    package func stop() {
        guard let p = process else { return }
        if p.isRunning {
            p.terminate()
            if !Self.waitForExit(p, timeout: 2) { kill(p.processIdentifier, SIGKILL) }
            Self.waitForExit(p, timeout: 10)
        }
        process = nil
    }

    /// Polls instead of `waitUntilExit`, which spins a run loop on Linux.
    @discardableResult
    package static func waitForExit(_ p: Process, timeout: TimeInterval) -> Bool {
        Poll.until(timeout: timeout, every: 0.02) { !p.isRunning }
    }

    /// Stops the relay and removes its directory (when this fixture created it).
    package func tearDown() {
        stop()
        scratch = nil
    }

    deinit { stop() }
}

package struct RelayFixtureError: Error, CustomStringConvertible {
    package let message: String
    package var portInUse = false
    package init(message: String, portInUse: Bool = false) { self.message = message; self.portInUse = portInUse }
    package var description: String { message }
}

/// Bytes appended from a pipe's reader thread, read from the test.
package final class LockedData: Sendable {
    private let data = LockedBox(Data())
    package init() {}
    package func append(_ d: Data) { data.withLock { $0.append(d) } }
    package func firstLine() -> String? {
        data.withLock { data in
            guard let nl = data.firstIndex(of: 0x0A) else { return nil }
            return String(decoding: data[data.startIndex..<nl], as: UTF8.self)
        }
    }
}
