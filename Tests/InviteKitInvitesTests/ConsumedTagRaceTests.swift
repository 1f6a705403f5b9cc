import XCTest
import Foundation
@testable import InviteKitInvites
import InviteKitTestSupport

/// Exactly one winner when joins race on one single-use invite: threads in one process, and
/// several real processes sharing the file store. The processes are this test binary started
/// again with only ``testRaceHelperProcess`` selected (no fork).
final class ConsumedTagRaceTests: XCTestCase {
    static let helperEnv = "INVITEKIT_RACE_HELPER_DIR"

    func testThreadsRaceOnInMemoryStore() {
        let store = InMemoryConsumedTagStore()
        let wins = raceThreads(count: 16) { (try? store.consume("c:tag")) == true }
        XCTAssertEqual(wins, 1)
    }

    func testThreadsRaceOnFileStore() throws {
        let tmp = TemporaryDirectory(prefix: "ik-race")
        defer { withExtendedLifetime(tmp) {} }
        let path = tmp.file("consumed")
        // Each thread has its own store object (its own descriptor), like separate processes.
        let wins = raceThreads(count: 16) {
            let store = FileConsumedTagStore(path: path)
            store.raceWindowForTesting = 2000
            return (try? store.consume("c:tag")) == true
        }
        XCTAssertEqual(wins, 1)
    }

    func testProcessesRaceOnFileStore() throws {
        let tmp = TemporaryDirectory(prefix: "ik-race")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.url
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let processCount = 6
        var procs = [Process]()
        for i in 0..<processCount {
            let p = Process()
            p.executableURL = exe
            p.arguments = ["InviteKitInvitesTests.ConsumedTagRaceTests/testRaceHelperProcess"]
            var env = ProcessInfo.processInfo.environment
            env[Self.helperEnv] = dir.path
            env["INVITEKIT_RACE_HELPER_ID"] = "\(i)"
            p.environment = env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            procs.append(p)
        }
        // Release every process at once, once each says it is waiting for the go.
        let ready = (0..<processCount).map { dir.appendingPathComponent("ready-\($0)").path }
        XCTAssertTrue(Poll.until(timeout: 60, every: 0.02) { ready.allSatisfy { access($0, F_OK) == 0 } }, "not every helper started")
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.appendingPathComponent("go").path, contents: Data()))
        for p in procs { p.waitUntilExit() }
        for p in procs { XCTAssertEqual(p.terminationStatus, 0) }
        var won = 0, lost = 0
        for i in 0..<processCount {
            let r = try String(contentsOfFile: dir.appendingPathComponent("result-\(i)").path, encoding: .utf8)
            for line in r.split(separator: "\n") {
                if line == "won" { won += 1 } else if line == "lost" { lost += 1 } else { XCTFail("helper said \(line)") }
            }
        }
        XCTAssertEqual(won, 1)
        XCTAssertEqual(won + lost, processCount * 8)
        XCTAssertTrue(try FileConsumedTagStore(path: dir.appendingPathComponent("consumed").path).isConsumed("race:tag"))
    }

    /// Runs only as a child of ``testProcessesRaceOnFileStore``.
    func testRaceHelperProcess() throws {
        guard let dirPath = ProcessInfo.processInfo.environment[Self.helperEnv],
              let id = ProcessInfo.processInfo.environment["INVITEKIT_RACE_HELPER_ID"] else {
            throw XCTSkip("helper for testProcessesRaceOnFileStore")
        }
        let dir = URL(fileURLWithPath: dirPath)
        let go = dir.appendingPathComponent("go").path
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.appendingPathComponent("ready-\(id)").path, contents: Data()))
        let deadline = Date().addingTimeInterval(30)
        while access(go, F_OK) != 0 && Date() < deadline { sched_yield() }
        let path = dir.appendingPathComponent("consumed").path
        let results = Locked<[String]>([])
        _ = raceThreads(count: 8) {
            let r: String
            let store = FileConsumedTagStore(path: path)
            store.raceWindowForTesting = 2000
            do { r = try store.consume("race:tag") ? "won" : "lost" } catch { r = "error \(error)" }
            results.mutate { $0.append(r) }
            return false
        }
        let text = results.value.joined(separator: "\n") + "\n"
        try text.write(toFile: dir.appendingPathComponent("result-\(id)").path, atomically: true, encoding: .utf8)
    }
}

final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var v: T
    init(_ v: T) { self.v = v }
    var value: T { lock.lock(); defer { lock.unlock() }; return v }
    func mutate(_ f: (inout T) -> Void) { lock.lock(); f(&v); lock.unlock() }
}

/// Starts `count` threads that wait on one barrier and then call `body`; returns how many
/// returned `true`.
func raceThreads(count: Int, _ body: @escaping @Sendable () -> Bool) -> Int {
    let wins = Locked(0)
    let ready = DispatchGroup(), done = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for _ in 0..<count {
        ready.enter(); done.enter()
        Thread.detachNewThread {
            ready.leave()
            gate.wait()
            if body() { wins.mutate { $0 += 1 } }
            done.leave()
        }
    }
    ready.wait()
    for _ in 0..<count { gate.signal() }
    done.wait()
    return wins.value
}
