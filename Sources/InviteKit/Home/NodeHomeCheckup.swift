/// What a read-only look at a home found (``NodeHome/checkup()``, `invitekit doctor`,
/// docs/cli.md §5): its files, whether its identity is whole, its database, its groups and who
/// holds its lock. Facts only; the caller decides how to show them.
public struct NodeHomeCheckup: Sendable {
    /// One path of the home: its mode (`nil` when absent) and what is wrong with it, if anything.
    public struct File: Sendable, Hashable {
        public let name: String
        public let mode: Int?
        public let problem: String?
    }

    /// Whether the home's key file and database are both there (docs/storage.md §5).
    public enum Identity: Sendable, Hashable {
        /// Both: the usual case.
        case present
        /// Neither: `init` creates them.
        case absent
        /// One without the other, with the error naming the missing file and the way out.
        case broken(InviteKitError)
    }

    /// The database's own report.
    public struct Database: Sendable, Hashable {
        public let schemaVersion: Int
        /// `PRAGMA integrity_check`'s lines: `["ok"]` when whole.
        public let integrity: [String]
        /// Deliveries still waiting for a relay.
        public let queuedDeliveries: Int
    }

    /// Who holds the home's lock: the pid it wrote (empty if none).
    public struct Lock: Sendable, Hashable {
        public let held: Bool
        public let pid: String
    }

    public let files: [File]
    /// The identity, or why the home could not be read to tell.
    public let identity: Result<Identity, InviteKitError>
    /// `nil` when the home has no database file.
    public let database: Result<Database, InviteKitError>?
    /// What stops the identity key or a group from being restored (``InviteKitNode/inspect(home:)``);
    /// `nil` unless the identity is ``Identity/present``.
    public let restoreProblems: [String]?
    /// `nil` when there is no lock file.
    public let lock: Lock?
    /// The schema version this InviteKit writes.
    public let currentSchemaVersion: Int
}
