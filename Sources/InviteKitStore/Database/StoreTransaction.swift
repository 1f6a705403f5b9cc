import Foundation
import GRDB

/// One open transaction. Only the store's typed tables touch SQL; callers use these.
/// Valid only inside the `write` / `read` closure that produced it.
public struct StoreTransaction {
    let db: Database

    public var identity: IdentityTable { IdentityTable(db: db) }
    public var groups: GroupsTable { GroupsTable(db: db) }
    public var keyPackages: KeyPackagesTable { KeyPackagesTable(db: db) }
    public var invites: InvitesTable { InvitesTable(db: db) }
    public var consumedTags: ConsumedTagsTable { ConsumedTagsTable(db: db) }
    public var bufferedEvents: BufferedEventsTable { BufferedEventsTable(db: db) }
    public var processedRequests: ProcessedRequestsTable { ProcessedRequestsTable(db: db) }
    public var pendingCommits: PendingCommitsTable { PendingCommitsTable(db: db) }
    public var outbound: OutboundTable { OutboundTable(db: db) }
    public var messages: MessagesTable { MessagesTable(db: db) }
    public var pendingJoins: PendingJoinsTable { PendingJoinsTable(db: db) }
    public var pendingApprovals: PendingApprovalsTable { PendingApprovalsTable(db: db) }

    /// Kills the process here when `name` is the armed fail point (tests only; a no-op otherwise).
    public func failPoint(_ name: String) { FailPoint.hit(name) }

    func userVersion() throws -> Int { try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
}

extension Array where Element == UInt8 {
    var data: Data { Data(self) }
}

extension Row {
    func bytes(_ column: String) -> [UInt8] { (self[column] as Data?).map { [UInt8]($0) } ?? [] }
    func optionalBytes(_ column: String) -> [UInt8]? { (self[column] as Data?).map { [UInt8]($0) } }
}
