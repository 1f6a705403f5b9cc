import Foundation
import GRDB
import InviteKitCrypto

/// Private halves of published KeyPackages, by KeyPackageRef (RFC 9420 §5.2), until a Welcome
/// uses them. The bundle is the MLS layer's own serialization, opaque here.
package struct KeyPackagesTable {
    let db: Database

    package func save(reference: [UInt8], eventID: String?, bundle: SecureBytes, lastResort: Bool, now: Int64) throws {
        try db.execute(sql: """
            INSERT INTO key_packages(ref, event_id, bundle, last_resort, created_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(ref) DO UPDATE SET event_id = coalesce(excluded.event_id, event_id), bundle = excluded.bundle,
                last_resort = excluded.last_resort
            """, arguments: [reference.data, eventID, bundle.exportBytes().data, lastResort, now])
    }

    package func bundle(reference: [UInt8]) throws -> SecureBytes? {
        try Row.fetchOne(db, sql: "SELECT bundle FROM key_packages WHERE ref = ?", arguments: [reference.data])
            .map { SecureBytes(copying: $0.bytes("bundle")) }
    }

    /// A Welcome used it: deleted, unless last-resort (which may serve several Welcomes).
    package func consume(reference: [UInt8]) throws {
        try db.execute(sql: "DELETE FROM key_packages WHERE ref = ? AND last_resort = 0", arguments: [reference.data])
    }

    package func references() throws -> [[UInt8]] {
        try Row.fetchAll(db, sql: "SELECT ref FROM key_packages ORDER BY created_at, ref").map { $0.bytes("ref") }
    }

    /// Unused, non-last-resort packages: `serve` publishes more when this drops below its threshold.
    package func countUnused() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM key_packages WHERE last_resort = 0") ?? 0
    }
}
