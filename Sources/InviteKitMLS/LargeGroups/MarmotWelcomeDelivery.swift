import InviteKitNostr

/// One added member's gift-wrapped Welcome (kind 1059 around a kind-444 rumor).
public struct MarmotWelcomeDelivery: Sendable, Hashable {
    /// The recipient's key (hex), the KeyPackage event's author.
    public let recipient: String
    /// The KeyPackage event the Welcome consumes (its `e` tag).
    public let keyPackageEventID: String
    public let wrap: NostrEvent
}
