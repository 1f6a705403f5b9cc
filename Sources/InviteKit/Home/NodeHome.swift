import Foundation
import InviteKitStore

/// A home as several processes share it: one process's ``InviteKitNode`` owns it (holds its
/// lock) and may serve it (``serve(_:onReady:onRequests:)``); any other process hands it work
/// (``perform(_:settle:timeout:eventBudget:)``) and waits for the answer, and reads its state
/// without the lock (the reads in NodeHome+Reads.swift). Nothing here keeps state in memory: a
/// `NodeHome` is a name for the directory, cheap to make in every process.
///
/// On disk (docs/node.md, "The inbox"): `HOME/inbox/` (0700) holds one `<id>.json` per handed
/// request (0600), renamed `<id>.taken` by the serving node when it takes it and answered by
/// `<id>.done` (the answer, or `error: …`); `HOME/inbox/serving` holds the serving process's pid.
public struct NodeHome: Sendable, Hashable {
    /// The home's directory, database, key and lock.
    public let home: StoreHome

    /// Names a home; opens nothing.
    public init(_ home: StoreHome) { self.home = home }

    /// How often a serving node marks a request it is still running; a mark older than 3 of
    /// these means it stopped.
    public static let heartbeatInterval: Duration = .seconds(5)

    /// The inbox directory.
    var inbox: String { (home.directory as NSString).appendingPathComponent("inbox") }

    /// The serve marker: the serving process's pid while it takes requests.
    var serveMarker: String { (inbox as NSString).appendingPathComponent("serving") }

    /// Whether a live process serves this home: its marker names a running process. A marker a
    /// killed process left behind does not count.
    public var isServed: Bool {
        guard let data = NodeHomeFiles.read(serveMarker),
              let pid = Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Opens the home's node, waiting up to `timeout` while another process holds the home for a
    /// run of its own (a command doing one request). Throws `store_locked` at once when a process
    /// serves the home (hand it work instead), or when the home is still held after `timeout`.
    public func openNode(configuration: InviteKitNode.Configuration = InviteKitNode.Configuration(),
                         timeout: Duration = .seconds(30)) async throws(InviteKitError) -> InviteKitNode {
        let deadline = ContinuousClock.now + timeout
        while true {
            do throws(InviteKitError) {
                return try InviteKitNode(home: home, configuration: configuration)
            } catch where error.code == .storeLocked {
                if isServed || ContinuousClock.now >= deadline { throw error }
            }
            try await Self.pause(.milliseconds(50))
        }
    }

    /// The configuration of a node a process opens for one request: no KeyPackage top-up (that
    /// is the serving node's job), and no relay wait past the request's deadline.
    static func oneRequestConfiguration(deadline: ContinuousClock.Instant, budget: EventBudget) -> InviteKitNode.Configuration {
        let left = deadline - ContinuousClock.now
        return InviteKitNode.Configuration(relayTimeout: max(.milliseconds(200), min(.relayTimeout, left)), idleInterval: .milliseconds(200),
                                           keyPackageLowWater: 0, eventBudget: budget)
    }

    /// Sleeps; a cancelled task ends the wait with `timed_out`.
    static func pause(_ duration: Duration) async throws(InviteKitError) {
        do { try await Task.sleep(for: duration) } catch { throw InviteKitError(.timedOut, underlyingCode: "cancelled") }
    }
}
