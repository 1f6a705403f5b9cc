import Foundation

/// The process tests' fixture: a real relay on loopback, the `invitekit` CLI as child processes,
/// and a temporary root holding one home per node. ``tearDown()`` ends every process, stops the
/// relay and removes the homes.
public final class CLIRelayWorld: @unchecked Sendable {
    public let relay: RelayProcess
    public let cli: CLIProcesses
    public let root: String

    /// Skips (or fails under `CI`) without the relay's venv or the built executable.
    public init(prefix: String) throws {
        try RelayProcess.requireRelay()
        cli = try CLIProcesses()
        relay = try RelayProcess()
        try relay.start()
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// The home directory of node `name`.
    public func home(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }

    public func tearDown() {
        cli.killAll()
        relay.tearDown()
        try? FileManager.default.removeItem(atPath: root)
    }
}
