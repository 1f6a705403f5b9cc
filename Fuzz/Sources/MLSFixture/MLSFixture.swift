import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS
import InviteKitNostr

/// Fixed KeyPackage material for the KeyPackage harnesses, built from a fixed seed. (The group
/// harnesses of the RFC 9420 engine build their own fixtures.)
public enum MLSFixture {
    public static let rng = SeededRandom(seed: 0x1_55_6E)
    public static let now: Int64 = 1_700_000_000
    public static let aliceID = FixedKeys.author.publicKey.rawRepresentation
    public static let bobID = FixedKeys.recipient.publicKey.rawRepresentation
    /// A KeyPackage whose credential is FixedKeys.author, valid at ``now``.
    public static let authorBundle: KeyPackageBundle = try! KeyPackageBundle.create(
        identity: aliceID, lifetime: Lifetime(notBefore: UInt64(now) - 1000, notAfter: UInt64(now) + 1000), lastResort: false, rng: rng)
}
