import Foundation

/// A node's home directory: the database, the identity key file and the lock.
///
/// `$INVITEKIT_HOME` if set, else `~/.invitekit/`. The directory is 0700 and every file in it
/// 0600.
public struct StoreHome: Sendable, Hashable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `$INVITEKIT_HOME`, else `~/.invitekit`.
    public static func resolve(_ explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> StoreHome {
        if let explicit, !explicit.isEmpty { return StoreHome(directory: explicit) }
        if let env = environment["INVITEKIT_HOME"], !env.isEmpty { return StoreHome(directory: env) }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return StoreHome(directory: (home as NSString).appendingPathComponent(".invitekit"))
    }

    public var databasePath: String { (directory as NSString).appendingPathComponent("invitekit.sqlite") }
    public var identityKeyPath: String { (directory as NSString).appendingPathComponent("identity.key") }
    public var lockPath: String { (directory as NSString).appendingPathComponent("lock") }

    /// Creates the directory (0700) if needed.
    public func create() throws { try StoreFiles.createPrivateDirectory(directory) }

    /// Whether an identity was created here.
    public var exists: Bool { FileManager.default.fileExists(atPath: identityKeyPath) }

    /// Creates the home if needed, takes its lock (a second node throws
    /// ``StoreError/Code/locked``) and opens (migrating) its database. Keep the lock for as long
    /// as the store is used.
    public func openExclusive() throws -> (store: Store, lock: HomeLock) {
        try create()
        let lock = try HomeLock(path: lockPath)
        let store = try Store.open(path: databasePath)
        return (store, lock)
    }

    /// Opens the database without the lock: for readers (`id`, `group read`) next to a running node.
    public func openShared() throws -> Store {
        try create()
        return try Store.open(path: databasePath)
    }
}
