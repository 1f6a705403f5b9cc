import Foundation
import GRDB

/// The node's public identity and default relays. The secret key is in ``IdentityKeyFile``.
package struct IdentityTable {
    let db: Database

    /// The x-only public key, or `nil` before `init`.
    package func publicKey() throws -> [UInt8]? {
        try Row.fetchOne(db, sql: "SELECT public_key FROM identity WHERE id = 1")?.bytes("public_key")
    }

    /// Records the identity; throws ``StoreError/Code/identityExists`` if there is one.
    package func create(publicKey: [UInt8], now: Int64) throws {
        guard try self.publicKey() == nil else { throw StoreError(.identityExists, "this home already has an identity") }
        try db.execute(sql: "INSERT INTO identity(id, public_key, created_at) VALUES (1, ?, ?)", arguments: [publicKey.data, now])
    }

    /// Default relays, in order.
    package func relays() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT url FROM relays ORDER BY position")
    }

    package func setRelays(_ urls: [String]) throws {
        try db.execute(sql: "DELETE FROM relays")
        var seen = Set<String>()
        for (i, url) in urls.enumerated() where seen.insert(url).inserted {
            try db.execute(sql: "INSERT INTO relays(url, position) VALUES (?, ?)", arguments: [url, i])
        }
    }
}
