import Foundation
import GRDB
import InviteKitCrypto

/// `invite_links`, `invite_request_ledgers` and `invite_link_approvals` (docs/storage.md §6): an
/// admin's invite-link generations, each group's request ledger, and the approvals whose Add is
/// in flight. Generations and ledgers are secret bytes, stored as the group state is.
package struct InviteLinksTable {
    let db: Database

    // MARK: generations

    package func insert(_ r: InviteLinkRecord) throws {
        try db.execute(sql: """
            INSERT INTO invite_links(link_id, group_id, generation, state, commit_event_id, descriptor_event_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [r.linkID, r.groupID, r.generation.exportBytes().data, r.state.rawValue, r.commitEventID, r.descriptorEventID,
                             r.createdAt, r.updatedAt])
    }

    package func get(linkID: String) throws -> InviteLinkRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM invite_links WHERE link_id = ?", arguments: [linkID]).map(Self.decode)
    }

    /// A group's generations (every group's when `groupID` is nil), oldest first.
    package func all(groupID: String? = nil) throws -> [InviteLinkRecord] {
        if let groupID {
            return try Row.fetchAll(db, sql: "SELECT * FROM invite_links WHERE group_id = ? ORDER BY created_at, link_id",
                                    arguments: [groupID]).map(Self.decode)
        }
        return try Row.fetchAll(db, sql: "SELECT * FROM invite_links ORDER BY created_at, link_id").map(Self.decode)
    }

    package func setState(linkID: String, _ state: InviteLinkRecord.State, now: Int64) throws {
        try db.execute(sql: "UPDATE invite_links SET state = ?, updated_at = ? WHERE link_id = ?", arguments: [state.rawValue, now, linkID])
        guard db.changesCount == 1 else { throw StoreError(.notFound, "no invite link \(linkID)") }
    }

    package func setDescriptor(linkID: String, eventID: String, now: Int64) throws {
        try db.execute(sql: "UPDATE invite_links SET descriptor_event_id = ?, updated_at = ? WHERE link_id = ?", arguments: [eventID, now, linkID])
    }

    /// Records that the generation's grant went to `admins` (lowercase hex; replaces the list).
    package func setGrantedAdmins(linkID: String, _ admins: [String], now: Int64) throws {
        try db.execute(sql: "UPDATE invite_links SET granted_admins = ?, updated_at = ? WHERE link_id = ?",
                       arguments: [admins.sorted().joined(separator: "\n"), now, linkID])
        guard db.changesCount == 1 else { throw StoreError(.notFound, "no invite link \(linkID)") }
    }

    static func decode(_ row: Row) -> InviteLinkRecord {
        let granted: String = row["granted_admins"] ?? ""
        return InviteLinkRecord(linkID: row["link_id"], groupID: row["group_id"], generation: SecureBytes(copying: row.bytes("generation")),
                                state: InviteLinkRecord.State(rawValue: row["state"]) ?? .failed, commitEventID: row["commit_event_id"],
                                descriptorEventID: row["descriptor_event_id"], grantedAdmins: granted.split(separator: "\n").map(String.init),
                                createdAt: row["created_at"], updatedAt: row["updated_at"])
    }

    // MARK: ledgers

    package func ledger(groupID: String) throws -> SecureBytes? {
        try Row.fetchOne(db, sql: "SELECT ledger FROM invite_request_ledgers WHERE group_id = ?", arguments: [groupID])
            .map { SecureBytes(copying: $0.bytes("ledger")) }
    }

    package func saveLedger(groupID: String, _ ledger: SecureBytes, now: Int64) throws {
        try db.execute(sql: """
            INSERT INTO invite_request_ledgers(group_id, ledger, updated_at) VALUES (?, ?, ?)
            ON CONFLICT(group_id) DO UPDATE SET ledger = excluded.ledger, updated_at = excluded.updated_at
            """, arguments: [groupID, ledger.exportBytes().data, now])
    }

    // MARK: approvals

    package func insertApproval(_ a: InviteLinkApprovalRecord) throws {
        try db.execute(sql: """
            INSERT INTO invite_link_approvals(commit_event_id, group_id, context, request_hash, commit_hash, welcome_hash, status_relays,
                                              status, created_at, resolved_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [a.commitEventID, a.groupID, a.context.data, a.requestHash.data, a.commitHash.data, a.welcomeHash.data,
                             a.statusRelays.joined(separator: "\n"), a.status.rawValue, a.createdAt, a.resolvedAt])
    }

    /// Approvals whose Commit outcome is not recorded yet, oldest first.
    package func waitingApprovals() throws -> [InviteLinkApprovalRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM invite_link_approvals WHERE status = 'waiting' ORDER BY created_at, commit_event_id")
            .map(Self.decodeApproval)
    }

    package func approvals(groupID: String) throws -> [InviteLinkApprovalRecord] {
        try Row.fetchAll(db, sql: "SELECT * FROM invite_link_approvals WHERE group_id = ? ORDER BY created_at, commit_event_id",
                         arguments: [groupID]).map(Self.decodeApproval)
    }

    /// Ends a waiting approval; throws ``StoreError/Code/invalidTransition`` when it was not waiting.
    package func resolveApproval(commitEventID: String, as status: InviteLinkApprovalRecord.Status, now: Int64) throws {
        try db.execute(sql: """
            UPDATE invite_link_approvals SET status = ?, resolved_at = ? WHERE commit_event_id = ? AND status = 'waiting'
            """, arguments: [status.rawValue, now, commitEventID])
        guard db.changesCount == 1 else { throw StoreError(.invalidTransition, "no waiting invite-link approval for \(commitEventID)") }
    }

    static func decodeApproval(_ row: Row) -> InviteLinkApprovalRecord {
        InviteLinkApprovalRecord(commitEventID: row["commit_event_id"], groupID: row["group_id"], context: row.bytes("context"),
                                 requestHash: row.bytes("request_hash"), commitHash: row.bytes("commit_hash"),
                                 welcomeHash: row.bytes("welcome_hash"),
                                 statusRelays: (row["status_relays"] as String? ?? "").split(separator: "\n").map(String.init),
                                 status: InviteLinkApprovalRecord.Status(rawValue: row["status"]) ?? .lost,
                                 createdAt: row["created_at"], resolvedAt: row["resolved_at"])
    }

    // MARK: offer checks

    /// Records (or replaces) the check of one request's offer.
    package func recordOfferCheck(_ c: InviteOfferCheckRecord) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO invite_offer_checks(request_hash, group_id, outcome, reason, attempts, next_check_at, checked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [c.requestHash.data, c.groupID, c.outcome.rawValue, c.reason, c.attempts, c.nextCheckAt, c.checkedAt])
    }

    /// The group's offer checks, by request hash.
    package func offerChecks(groupID: String) throws -> [[UInt8]: InviteOfferCheckRecord] {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM invite_offer_checks WHERE group_id = ?", arguments: [groupID])
        var checks: [[UInt8]: InviteOfferCheckRecord] = [:]
        for row in rows {
            let c = InviteOfferCheckRecord(requestHash: row.bytes("request_hash"), groupID: row["group_id"],
                                           outcome: InviteOfferCheckRecord.Outcome(rawValue: row["outcome"]) ?? .unavailable,
                                           reason: row["reason"], attempts: row["attempts"], nextCheckAt: row["next_check_at"],
                                           checkedAt: row["checked_at"])
            checks[c.requestHash] = c
        }
        return checks
    }

    /// Deletes the group's checks of requests that no longer govern a retained context (`keep`):
    /// the table holds at most one row per retained context.
    package func pruneOfferChecks(groupID: String, keeping keep: Set<[UInt8]>) throws {
        for hash in try offerChecks(groupID: groupID).keys where !keep.contains(hash) {
            try db.execute(sql: "DELETE FROM invite_offer_checks WHERE request_hash = ?", arguments: [hash.data])
        }
    }
}
