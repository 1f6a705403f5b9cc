import Foundation
import GRDB

/// One open transaction. Only the store's typed tables touch SQL; callers use these.
/// Valid only inside the `write` / `read` closure that produced it.
package struct StoreTransaction {
    let db: Database

    package var identity: IdentityTable { IdentityTable(db: db) }
    package var groups: GroupsTable { GroupsTable(db: db) }
    package var keyPackages: KeyPackagesTable { KeyPackagesTable(db: db) }
    package var invites: InvitesTable { InvitesTable(db: db) }
    package var consumedTags: ConsumedTagsTable { ConsumedTagsTable(db: db) }
    package var bufferedEvents: BufferedEventsTable { BufferedEventsTable(db: db) }
    package var treeChunks: TreeChunksTable { TreeChunksTable(db: db) }
    package var groupSeen: GroupSeenTable { GroupSeenTable(db: db) }
    package var processedRequests: ProcessedRequestsTable { ProcessedRequestsTable(db: db) }
    package var pendingCommits: PendingCommitsTable { PendingCommitsTable(db: db) }
    package var outbound: OutboundTable { OutboundTable(db: db) }
    package var messages: MessagesTable { MessagesTable(db: db) }
    package var pendingJoins: PendingJoinsTable { PendingJoinsTable(db: db) }
    package var pendingApprovals: PendingApprovalsTable { PendingApprovalsTable(db: db) }
    package var readState: GroupReadStateTable { GroupReadStateTable(db: db) }
    package var selfUpdates: GroupSelfUpdatesTable { GroupSelfUpdatesTable(db: db) }
    package var inviteLinks: InviteLinksTable { InviteLinksTable(db: db) }
    package var inviteLinkJoins: InviteLinkJoinsTable { InviteLinkJoinsTable(db: db) }

    /// Kills the process here when `name` is the armed fail point (tests only; a no-op otherwise).
    package func failPoint(_ name: String) { FailPoint.hit(name) }

    func userVersion() throws -> Int { try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
}

extension Array where Element == UInt8 {
    var data: Data { Data(self) }
}

extension Row {
    func bytes(_ column: String) -> [UInt8] { (self[column] as Data?).map { [UInt8]($0) } ?? [] }
    func optionalBytes(_ column: String) -> [UInt8]? { (self[column] as Data?).map { [UInt8]($0) } }
}
