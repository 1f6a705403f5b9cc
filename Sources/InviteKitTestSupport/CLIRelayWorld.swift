import Foundation

/// The process tests' fixture: a real relay on loopback, the `invitekit` CLI as child processes,
/// and a temporary root holding one home per node. ``tearDown()`` ends every process, stops the
/// relay and removes the homes.
package final class CLIRelayWorld: @unchecked Sendable {
    // Safe: built and torn down by the test's one task; the processes it starts share nothing of it.
    package let relay: RelayProcess
    package let cli: CLIProcesses
    package let root: String
    private var scratch: TemporaryDirectory?

    /// Skips (or fails under `CI`) without the relay's venv or the built executable.
    package init(prefix: String) throws {
        try RelayProcess.requireRelay()
        cli = try CLIProcesses()
        relay = try RelayProcess()
        try relay.start()
        let scratch = TemporaryDirectory(prefix: prefix)
        self.scratch = scratch
        root = scratch.path
    }

    /// The home directory of node `name`.
    package func home(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }

    package func tearDown() {
        cli.killAll()
        relay.tearDown()
        scratch = nil
    }
}
