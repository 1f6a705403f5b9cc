import InviteKitCrypto
import InviteKitNostr

/// A KeyPackage event that passed ``KeyPackageValidator/validate(_:now:skew:)``.
public struct ValidatedKeyPackage: Sendable, Hashable {
    public let event: NostrEvent
    public let keyPackage: KeyPackage
    /// KeyPackageRef (RFC 9420 §5.2).
    public let reference: [UInt8]
    public var isLastResort: Bool { keyPackage.isLastResort }
}
