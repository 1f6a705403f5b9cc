import InviteKitCrypto
import InviteKitInvites
import InviteKitMLS

extension HostedGroup {
    /// A new group with `creator` as its only member and admin (MIP-01), and a fresh invite tag.
    public static func create(creator: Secp256k1.PrivateKey, name: String?, relays: [String], now: Int64 = UnixTime.now(),
                              rng: RandomSource = SystemRandom()) throws -> HostedGroup {
        let bundle = try KeyPackageBundle.create(identity: creator.publicKey.rawRepresentation,
                                                 lifetime: try KeyPackageEvent.lifetime(createdAt: max(0, now)),
                                                 lastResort: false, rng: rng)
        let group = try MarmotMLSGroup.create(creator: bundle, name: name ?? "", relays: relays, rng: rng)
        return HostedGroup(group: group, currentTag: InviteTag.generate(using: rng), relays: relays, name: name)
    }
}
