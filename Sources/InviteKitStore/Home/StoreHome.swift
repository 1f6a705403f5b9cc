import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A node's home directory: the database, the identity key file and the lock.
///
/// `$INVITEKIT_HOME` if set, else `~/.invitekit/`. The directory is 0700 and every file in it
/// 0600.
public struct StoreHome: Sendable, Hashable {
    /// Always absolute: a relative directory is resolved against the current directory when
    /// the home is made (``AbsolutePath``).
    public let directory: String

    public init(directory: String) { self.directory = AbsolutePath.resolve(directory) }

    /// `path` made absolute the way a home's directory is (``AbsolutePath``), so a tool resolves
    /// every path it takes with the one rule.
    public static func absolutePath(_ path: String) -> String { AbsolutePath.resolve(path) }

    /// `$INVITEKIT_HOME`, else `~/.invitekit`.
    public static func resolve(_ explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> StoreHome {
        if let explicit, !explicit.isEmpty { return StoreHome(directory: explicit) }
        if let env = environment["INVITEKIT_HOME"], !env.isEmpty { return StoreHome(directory: env) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return StoreHome(directory: (home as NSString).appendingPathComponent(".invitekit"))
    }

    public var databasePath: String { (directory as NSString).appendingPathComponent("invitekit.sqlite") }
    package var identityKeyPath: String { (directory as NSString).appendingPathComponent("identity.key") }
    package var lockPath: String { (directory as NSString).appendingPathComponent("lock") }

    /// Creates the directory (0700) if needed; refuses an existing one that is not private
    /// (owned by another user, or writable by group or others) and says how to fix it.
    package func create() throws { try StoreFiles.createPrivateDirectory(directory) }

    /// Whether an identity key file exists here.
    public var exists: Bool { FileManager.default.fileExists(atPath: identityKeyPath) }

    /// What a home holds: the key file and the database belong together.
    package enum Contents: Sendable, Equatable {
        /// Neither: `init` creates them.
        case empty
        /// Both (the usual case; also an `init` that died after the key file).
        case complete
        /// `identity.key` without a database: the groups are gone, the key alone cannot serve.
        case missingDatabase
        /// A database that names an identity, without its `identity.key`.
        case missingKey
    }

    /// The home's ``Contents``. A zero-byte database counts as missing (`init` writes the
    /// schema before the key file, so a real database is never empty next to a key).
    package func contents() throws -> Contents {
        let key = exists
        var st = stat()
        let database = lstat(databasePath, &st) == 0 && st.st_size > 0
        switch (key, database) {
        case (true, true): return .complete
        case (true, false): return .missingDatabase
        case (false, false): return .empty
        case (false, true): return try storedIdentity() == nil ? .empty : .missingKey
        }
    }

    /// Throws unless the home holds both its key and its database, naming the missing file and
    /// the way out (docs/storage.md §5).
    package func requireIntact() throws {
        switch try contents() {
        case .complete: return
        case .empty: throw StoreError(.identityUnavailable, "no identity in \(directory) (run `invitekit init`)")
        case .missingDatabase: throw missingDatabaseError()
        case .missingKey: throw missingKeyError()
        }
    }

    /// Throws unless `init` may create an identity here: the home is empty (or an earlier `init`
    /// stopped before writing the key). A half-present home gets the recovery message.
    package func requireInitializable() throws {
        switch try contents() {
        case .empty: return
        case .complete: throw StoreError(.identityExists, "\(directory) already has an identity (`invitekit id` prints it)")
        case .missingDatabase: throw missingDatabaseError()
        case .missingKey: throw missingKeyError()
        }
    }

    /// Moves the identity key and the database (with its `-wal` and `-shm`) aside as
    /// `<name>.replaced-<now>`, under the home's lock, so `init` can create a new identity. Nothing is
    /// deleted: the old files stay for a restore. Returns the new paths.
    @discardableResult
    package func setAside(now: Int64) throws -> [String] {
        try create()
        let lock = try HomeLock(path: lockPath)
        var moved: [String] = []
        for path in [identityKeyPath, databasePath, databasePath + "-wal", databasePath + "-shm"] {
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            let target = "\(path).replaced-\(now)"
            guard rename(path, target) == 0 else {
                throw StoreError(.homeUnavailable, "cannot move \(StoreFiles.lastPathComponent(path)) aside (\(StoreFiles.describe(errno)))")
            }
            moved.append(target)
        }
        withExtendedLifetime(lock) {}
        return moved
    }

    /// Creates the home if needed, takes its lock (a second node throws
    /// ``StoreError/Code/locked``) and opens (migrating) its database. Keep the lock for as long
    /// as the store is used. A home with its key but not its database, or the reverse, is refused.
    package func openExclusive() throws -> (store: Store, lock: HomeLock) {
        try create()
        let lock = try HomeLock(path: lockPath)
        switch try contents() {
        case .missingDatabase: throw missingDatabaseError()
        case .missingKey: throw missingKeyError()
        case .empty, .complete: break
        }
        let store = try Store.open(path: databasePath)
        return (store, lock)
    }

    /// Opens the database without the lock: for readers (`id`, `group read`) next to a running
    /// node. A read-only home opens read-only.
    package func openShared() throws -> Store {
        try requireIntact()
        return try Store.open(path: databasePath)
    }

    private func storedIdentity() throws -> [UInt8]? {
        try Store.open(path: databasePath).read { tx in try tx.identity.publicKey() }
    }

    private func missingDatabaseError() -> StoreError {
        StoreError(.identityUnavailable, """
            \(databasePath) is missing but \(identityKeyPath) is present: restore invitekit.sqlite from a backup, \
            or run `invitekit init --force-new-identity` to set both aside and start a new identity
            """)
    }

    private func missingKeyError() -> StoreError {
        StoreError(.identityUnavailable, """
            \(identityKeyPath) is missing but \(databasePath) holds an identity: restore identity.key from a backup, \
            or run `invitekit init --force-new-identity` to set the database aside and start a new identity
            """)
    }
}
