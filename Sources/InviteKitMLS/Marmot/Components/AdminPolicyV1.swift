/// `marmot.group.admin-policy.v1`, component `0x8003` (`app-components/admin-policy-v1.md`; MDK
/// v0.9.14 `crates/cgka-engine/src/app_components.rs:1488`): the group's admins.
///
///     struct { opaque xonly_pubkey[32]; } MarmotAdminKeyV1;
///     struct { MarmotAdminKeyV1 admins<V>; } MarmotAdminPolicyV1;
///
/// Non-empty, sorted by bytes, unique; every admin must hold a leaf (checked against the tree by
/// ``MarmotGroupData``). The update is the whole new list.
public struct AdminPolicyV1: Hashable, Sendable {
    /// Ascending, unique, each 32 bytes.
    public let admins: [[UInt8]]

    /// Sorts and deduplicates; refuses an empty list or a key that is not 32 bytes.
    public init(admins: [[UInt8]]) throws {
        guard admins.allSatisfy({ $0.count == 32 }) else { throw MLSError(.invalidComponent, "admin keys must be 32 bytes") }
        let sorted = Set(admins).sorted { $0.lexicographicallyPrecedes($1) }
        guard !sorted.isEmpty else { throw MLSError(.invalidComponent, "admin policy has no admin") }
        self.admins = sorted
    }

    public var encoded: [UInt8] { ComponentCodec.encode { $0.writeOpaque(admins.flatMap { $0 }) } }

    /// Reads strictly: a whole number of keys, ascending, no repeat, at least one.
    public init(decoding bytes: [UInt8]) throws {
        let body = try ComponentCodec.decode(bytes, "admin policy") { try $0.readOpaque() }
        guard body.count % 32 == 0 else { throw MLSError(.invalidComponent, "admin policy is not a whole number of 32-byte keys") }
        let keys = stride(from: 0, to: body.count, by: 32).map { Array(body[$0..<$0 + 32]) }
        guard !keys.isEmpty else { throw MLSError(.invalidComponent, "admin policy has no admin") }
        for (a, b) in zip(keys, keys.dropFirst()) where !a.lexicographicallyPrecedes(b) {
            throw MLSError(.invalidComponent, a == b ? "admin policy repeats a key" : "admin policy is not sorted")
        }
        admins = keys
    }
}
