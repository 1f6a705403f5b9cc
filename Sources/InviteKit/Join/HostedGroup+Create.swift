import InviteKitCrypto
import InviteKitInvites
import InviteKitMLS

extension HostedGroup {
    /// A new group with `creator` as its only member and admin, and a fresh invite tag. The group
    /// speaks `profile` (PROTOCOL §5.12; default: the current profile).
    public static func create(creator: Secp256k1.PrivateKey, name: String?, relays: [String], profile: MarmotWireProfile = .current,
                              outOfBandTree: Bool = false, now: Int64 = UnixTime.now(), rng: RandomSource = SystemRandom()) throws(InviteKitError) -> HostedGroup {
        try InviteKitError.mapping { try make(creator: creator, name: name, relays: relays, profile: profile, outOfBandTree: outOfBandTree, now: now, rng: rng) }
    }

    private static func make(creator: Secp256k1.PrivateKey, name: String?, relays: [String], profile: MarmotWireProfile, outOfBandTree: Bool,
                             now: Int64, rng: RandomSource) throws -> HostedGroup {
        // The creator's leaf is made like any KeyPackage of the profile (the event is not published).
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: creator, relays: relays, lastResort: false, profile: profile,
                                                     now: max(0, now), rng: rng)
        let group = try MarmotMLSGroup.create(creator: bundle, name: name ?? "", relays: relays, outOfBandTree: outOfBandTree, rng: rng)
        return HostedGroup(group: group, currentTag: InviteTag.generate(using: rng), relays: relays, name: name)
    }
}
