import InviteKitNostr

/// An own commit between "built" and "published": publish ``event``, then call
/// ``MarmotGroup/confirmPublished(_:acknowledgedBy:now:)``, which alone releases the Welcomes.
public struct MarmotPendingCommit<Engine: MarmotEngine>: Sendable {
    /// The kind-445 event to publish.
    public let event: NostrEvent
    /// The epoch the commit was made in.
    public let fromEpoch: UInt64
    let pending: Engine.Pending
    /// The serialized Welcome MLSMessage, when the commit adds members.
    public let welcome: [UInt8]?
    /// KeyPackage events of the added members, in add order.
    public let keyPackageEvents: [NostrEvent]
    /// The commit's ordering class for convergence (PROTOCOL §5.13), decided from the request
    /// when it was built; `nil` for a commit stored by version 1, which did not record it.
    public var priority: CommitPriority? = nil
}
