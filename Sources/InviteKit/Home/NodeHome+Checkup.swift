import Foundation
import InviteKitStore

extension NodeHome {
    /// Looks at the home without changing it (`invitekit doctor`, docs/cli.md §5): file modes,
    /// whether the key and the database are both there, the schema version,
    /// `PRAGMA integrity_check`, queued deliveries, whether every group restores and who holds
    /// the lock. Works while another process serves the home.
    public func checkup() -> NodeHomeCheckup {
        let files = home.fileReport().map { NodeHomeCheckup.File(name: $0.name, mode: $0.mode, problem: $0.problem) }
        let identity: Result<NodeHomeCheckup.Identity, InviteKitError>
        do {
            switch try home.contents() {
            case .complete: identity = .success(.present)
            case .empty: identity = .success(.absent)
            case .missingDatabase, .missingKey:
                do { try home.requireIntact(); identity = .success(.present) } catch { identity = .success(.broken(InviteKitError.from(error))) }
            }
        } catch {
            identity = .failure(InviteKitError.from(error))
        }
        var database: Result<NodeHomeCheckup.Database, InviteKitError>?
        if FileManager.default.fileExists(atPath: home.databasePath) {
            do {
                let r = try Store.inspect(path: home.databasePath)
                database = .success(.init(schemaVersion: r.schemaVersion, integrity: r.integrity, queuedDeliveries: r.queuedDeliveries))
            } catch {
                database = .failure(InviteKitError.from(error))
            }
        }
        // The identity key and every group, restored as a node would (issue 31, D6).
        let restoreProblems = (try? identity.get()) == .present ? InviteKitNode.inspect(home: home) : nil
        let lock = HomeLock.holder(path: home.lockPath).map { NodeHomeCheckup.Lock(held: $0.held, pid: $0.pid) }
        return NodeHomeCheckup(files: files, identity: identity, database: database, restoreProblems: restoreProblems, lock: lock,
                               currentSchemaVersion: StoreHome.currentSchemaVersion)
    }
}
