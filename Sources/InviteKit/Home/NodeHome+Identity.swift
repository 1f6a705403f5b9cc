import InviteKitStore

extension NodeHome {
    /// Creates this home's identity (`invitekit init`): the directory (0700), then
    /// ``InviteKitNode/initialize(home:relays:importing:now:rng:)``. A home that already has an
    /// identity, or half of one, is refused with the way out, unless `replacingIdentity`: then
    /// its key file and database are first renamed `<name>.replaced-<now>` (nothing deleted,
    /// docs/storage.md §5), and their new paths returned.
    public func createIdentity(relays: [String], importing secret: SecureBytes? = nil, replacingIdentity: Bool = false,
                               now: Int64 = UnixTime.now()) throws(InviteKitError) -> (publicKey: Secp256k1.XOnlyPublicKey, setAside: [String]) {
        let setAside: [String] = try InviteKitError.mapping {
            try home.create()
            guard replacingIdentity else { try home.requireInitializable(); return [] }
            return try home.contents() == .empty ? [] : home.setAside(now: now)
        }
        return (try InviteKitNode.initialize(home: home, relays: relays, importing: secret, now: now), setAside)
    }
}
