import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// The node's durable state: one SQLite database (through GRDB), written one transaction per
/// state change.
///
/// - WAL journal, so readers (`group read --follow`) never block the writer.
/// - `synchronous = FULL`: a commit is on disk before `write` returns. The node publishes side
///   effects (a join-error reply, a Commit) only after the transaction that decided them
///   committed; with `NORMAL` a power cut could forget a committed decision whose reply already
///   left, and the restart would decide and reply again (PROTOCOL §8: one reply per request).
/// - A busy timeout, so a second connection (a `read` while `serve` runs) waits instead of failing.
/// - `secure_delete`, so retired KeyPackage private parts and old group states are overwritten
///   on delete rather than left in free pages.
package final class Store: Sendable {
    /// The `synchronous` pragma every connection uses (see the type's documentation).
    package static let synchronous = "FULL"
    /// How long a connection waits for another writer before ``StoreError/Code/busy``.
    package static let busyTimeoutSeconds: Double = 5

    let writer: any DatabaseWriter
    /// The writing connection's current `synchronous` level; read and changed only inside
    /// `writer`'s serialized writes, so consecutive `.deferred` writes set it once.
    nonisolated(unsafe) private var writerDurability = Durability.immediate
    /// The database file, or `nil` in memory.
    package let path: String?
    /// The directory holding it, where a full disk shows.
    var directory: String? { path.map(AbsolutePath.parent(of:)) }

    private init(writer: any DatabaseWriter, path: String?) {
        self.writer = writer
        self.path = path
    }

    /// Opens (creating if needed, mode 0600) the database at `path` and migrates it to the
    /// current schema. A schema from a newer InviteKit throws ``StoreError/Code/schemaTooNew``;
    /// a damaged file throws ``StoreError/Code/corrupt``.
    /// A relative `path` is resolved against the current directory first (``AbsolutePath``).
    package static func open(path: String) throws -> Store {
        try open(path: AbsolutePath.resolve(path), migrateTo: nil)
    }

    /// A private in-memory database with the same schema and pragmas (no WAL in memory).
    package static func inMemory() throws -> Store {
        try inMemory(migrateTo: nil)
    }

    /// The schema version of this database.
    package func schemaVersion() throws -> Int {
        try read { tx in try tx.userVersion() }
    }

    static func open(path: String, migrateTo target: Int?) throws -> Store {
        guard try StoreFiles.prepareDatabaseFile(path) else { return try openReadOnly(path: path) }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration())
        } catch {
            throw StoreError.from(error, opening: true)
        }
        let store = Store(writer: pool, path: path)
        // GRDB sets NORMAL on the writer when it turns WAL on; the writer is the only connection
        // that commits, so this is where FULL must hold.
        try store.raw { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
        try Migrator.migrate(store, to: target)
        return store
    }

    /// A database in a read-only home (a read-only mount, a file this user may not write): read
    /// commands work, writes fail with ``StoreError/Code/io``. On a read-only file system no other
    /// process can change the file, so SQLite is told it is immutable when no WAL is left (it
    /// cannot create the `-shm` file a WAL reader otherwise needs).
    static func openReadOnly(path: String) throws -> Store {
        let store = try openUnmigrated(path: path)
        let version = try store.schemaVersion()
        guard version <= Schema.currentVersion else {
            throw StoreError(.schemaTooNew, "database schema v\(version), this InviteKit knows up to v\(Schema.currentVersion)")
        }
        guard version == Schema.currentVersion else {
            throw StoreError(.io, "the database (schema v\(version)) needs an upgrade, and the home is read-only: run any command once with write access")
        }
        return store
    }

    /// A read-only connection that neither creates, migrates nor writes anything (also for
    /// `doctor`).
    static func openUnmigrated(path: String) throws -> Store {
        var config = configuration(readOnly: true)
        config.readonly = true
        var fs = statvfs()
        // Immutable only without a WAL to read: SQLite reads an existing `-wal`/`-shm` pair
        // read-only itself, and `immutable` would skip what the WAL holds.
        var wal = stat()
        let walHoldsData = stat(path + "-wal", &wal) == 0 && wal.st_size > 0
        let immutable = statvfs(path, &fs) == 0 && (fs.f_flag & UInt(ST_RDONLY)) != 0 && !walHoldsData
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: immutable ? immutableURI(path) : path, configuration: config)
        } catch {
            throw StoreError.from(error, opening: true)
        }
        return Store(writer: queue, path: path)
    }

    /// `file:` URI with `immutable=1`; the path is percent-encoded (SQLite URI rules).
    private static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/-._~")
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?immutable=1"
    }

    static func inMemory(migrateTo target: Int?) throws -> Store {
        let queue: DatabaseQueue
        do { queue = try DatabaseQueue(configuration: configuration()) } catch { throw StoreError.from(error, opening: true) }
        let store = Store(writer: queue, path: nil)
        try Migrator.migrate(store, to: target)
        return store
    }

    private static func configuration(readOnly: Bool = false) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(busyTimeoutSeconds)
        config.foreignKeysEnabled = true
        config.label = "InviteKitStore"
        if !readOnly {
            config.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
                try db.execute(sql: "PRAGMA secure_delete = ON")
            }
        }
        return config
    }

    /// When a committed write transaction reaches the disk.
    package enum Durability: Sendable {
        /// Before ``Store/write(durability:_:)`` returns (``Store/synchronous``): for every
        /// transaction the node acts on outside the process afterwards (a reply, a printed tag).
        case immediate
        /// Committed at once, so a killed process loses nothing (WAL); synced to disk by the next
        /// `.immediate` commit at the latest, because that one syncs the whole log
        /// (`synchronous = NORMAL` for this commit). For inbound state nothing has acted on yet
        /// (a received group event and its message): the node writes an `.immediate` `sent` mark
        /// before anything goes to a relay, so a power cut can only lose what no one saw, and the
        /// relays still hold it.
        case deferred
    }

    /// Runs `body` in one immediate write transaction: everything it does commits together, or
    /// (when it throws, or the process dies) nothing does.
    @discardableResult
    package func write<T>(durability: Durability = .immediate, _ body: (StoreTransaction) throws -> T) throws -> T {
        var result: T?
        do {
            try writer.writeWithoutTransaction { db in
                if durability != writerDurability {
                    try db.execute(sql: "PRAGMA synchronous = \(durability == .deferred ? "NORMAL" : Self.synchronous)")
                    writerDurability = durability
                }
                try db.inTransaction(.immediate) {
                    result = try body(StoreTransaction(db: db))
                    return .commit
                }
            }
        } catch {
            throw StoreError.from(error, directory: directory)
        }
        return result!
    }

    /// Runs `body` on a consistent snapshot.
    package func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        do {
            return try writer.read { db in try body(StoreTransaction(db: db)) }
        } catch {
            throw StoreError.from(error, directory: directory)
        }
    }

    /// Runs `body` on a reader connection outside a transaction: for lookups that need no
    /// snapshot across statements (each statement still reads one committed state). Saves the
    /// `BEGIN`/`COMMIT` a per-event check would pay.
    package func peek<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        do {
            return try writer.unsafeRead { db in try body(StoreTransaction(db: db)) }
        } catch {
            throw StoreError.from(error, directory: directory)
        }
    }

    /// Runs `body` outside any transaction (migrations manage their own).
    @discardableResult
    func raw<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try writer.writeWithoutTransaction(body) } catch { throw StoreError.from(error, directory: directory) }
    }
}
