/// How a commit's Welcome conveys the ratchet tree (PROTOCOL §5.11): inline in the RFC 9420
/// `ratchet_tree` GroupInfo extension while a one-member Welcome stays within
/// ``maxInlineWelcomeBytes``, otherwise out of band (a ``RatchetTreeOption/outOfBand(treeSignature:)``
/// extension instead, the tree in chunk events).
public struct WelcomeTreePolicy: Sendable, Hashable {
    /// The largest one-member Welcome `MLSMessage` sent with the tree inline; `nil`: always inline.
    public var maxInlineWelcomeBytes: Int?

    public init(maxInlineWelcomeBytes: Int?) { self.maxInlineWelcomeBytes = maxInlineWelcomeBytes }

    /// Always inline (RFC 9420 §12.4.3.3; what MDK 0.8.0 sends and reads).
    public static let inline = WelcomeTreePolicy(maxInlineWelcomeBytes: nil)
    /// Always out of band (tests).
    public static let outOfBand = WelcomeTreePolicy(maxInlineWelcomeBytes: 0)
}
