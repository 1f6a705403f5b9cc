import InviteKitCrypto
import InviteKitStore

extension InviteKitNode {
    /// A damaged group's error: `store_corrupt`, naming the group and the layer's code.
    static func damage(_ error: Error, groupID: String) -> InviteKitError {
        let mapped = InviteKitError.from(error)
        return InviteKitError(.storeCorrupt, underlyingCode: mapped.underlyingCode ?? mapped.code.rawValue,
                              context: "group \(groupID) does not restore")
    }

    /// What `invitekit doctor` finds wrong with a home's identity and groups, read-only and
    /// without the home's lock (issue 31, D6): the identity key file (mode, size, a valid
    /// secp256k1 secret, the database's identity) and every stored group, restored with its tree
    /// chunks as a node would. One line per problem; empty when all is well.
    public static func inspect(home: StoreHome) -> [String] {
        var problems: [String] = []
        let store: Store
        do { store = try Store.open(path: home.databasePath) } catch { return ["database: \(InviteKitError.from(error))"] }
        do {
            let secret = try IdentityKeyFile.read(from: home.identityKeyPath)
            let key = try secret.withUnsafeBytes { try Secp256k1.PrivateKey(rawRepresentation: $0) }
            let stored = try store.read { tx in try tx.identity.publicKey() }
            if let stored, stored != key.publicKey.rawRepresentation { problems.append("identity.key does not match this home's database") }
        } catch {
            problems.append("identity.key: \(InviteKitError.from(error))")
        }
        do {
            for row in try store.read({ tx in try tx.groups.all() }) {
                do { _ = try store.read { tx in try restoreGroup(row, in: tx) } } catch {
                    problems.append("group \(row.id): \(damage(error, groupID: row.id))")
                }
            }
        } catch {
            problems.append("groups: \(InviteKitError.from(error))")
        }
        return problems
    }
}
