import InviteKitCrypto

/// What the Marmot binding (``MarmotGroup``) needs from an RFC 9420 member state: the engine in
/// `Engine/` (``MLSGroupState``) conforms, and tests of the binding use a small stand-in. Conformers
/// are value types: the binding processes a commit on a copy and keeps the original until the
/// commit passed the Marmot rules, and keeps copies of earlier epochs for rollback.
public protocol MarmotEngine: Sendable {
    associatedtype Pending: Sendable

    /// Creates a one-member group at epoch 0 (RFC 9420 §11) with these GroupContext extensions.
    static func create(groupID: [UInt8], creator: KeyPackageBundle, extensions: [MLSExtension], rng: RandomSource) throws -> Self
    /// The KeyPackageRefs a serialized Welcome MLSMessage has secrets for (RFC 9420 §12.4.3.1).
    static func keyPackageReferences(inWelcome welcomeMessage: [UInt8]) throws -> [[UInt8]]
    /// Joins from a serialized Welcome MLSMessage with the KeyPackage it names.
    static func join(welcomeMessage: [UInt8], bundle: KeyPackageBundle) throws -> Self

    var epoch: UInt64 { get }
    /// `true` once a commit removed this member.
    var isRemoved: Bool { get }
    /// This member's credential identity (a 32-byte Nostr key).
    var ownIdentity: [UInt8] { get }
    /// The credential identities of the current members.
    var memberIdentities: [[UInt8]] { get }
    /// The GroupContext extensions of the current epoch.
    var groupContextExtensions: [MLSExtension] { get }
    /// Right after a join: the credential identity of the member that signed the Welcome's
    /// GroupInfo (`nil` when the engine does not say).
    var welcomeSignerIdentity: [UInt8]? { get }

    /// `MLS-Exporter(label, context, length)` of the current epoch (RFC 9420 §8.5).
    func exporter(label: String, context: [UInt8], length: Int) -> SecureBytes
    /// Application data as a serialized MLSMessage (PrivateMessage) of the current epoch.
    mutating func sealApplication(_ data: [UInt8], rng: RandomSource) throws -> [UInt8]
    /// A SelfRemove proposal of this member as a serialized MLSMessage (PublicMessage).
    mutating func proposeSelfRemove(rng: RandomSource) throws -> [UInt8]
    /// A commit (always with a path) for `request`, not yet applied.
    func makeCommit(_ request: MarmotCommitRequest, rng: RandomSource) throws -> (pending: Pending, message: [UInt8], welcome: [UInt8]?)
    /// Applies an own commit once it was published.
    mutating func merge(_ pending: Pending) throws
    /// Processes a serialized MLSMessage of this group. On error the state is unchanged.
    mutating func processMessage(_ message: [UInt8]) throws -> MarmotEngineEvent
    /// The whole state as versioned bytes (secrets included).
    func serialized() -> SecureBytes
    /// Reads ``serialized()`` back.
    init(serialized data: SecureBytes) throws
    /// ``serialized()`` for a state stored beside `base` (a rollback snapshot beside the current
    /// state): an engine may write only what differs.
    func serialized(relativeTo base: Self?) -> SecureBytes
    /// Reads ``serialized(relativeTo:)`` back with the same base.
    init(serialized data: SecureBytes, relativeTo base: Self?) throws
}

extension MarmotEngine {
    public var welcomeSignerIdentity: [UInt8]? { nil }
    public func serialized(relativeTo base: Self?) -> SecureBytes { serialized() }
    public init(serialized data: SecureBytes, relativeTo base: Self?) throws { try self.init(serialized: data) }
}

/// What a commit is to do.
public struct MarmotCommitRequest: Sendable {
    /// KeyPackages to add (already validated).
    public var adds: [KeyPackage]
    /// Credential identities to remove.
    public var removes: [[UInt8]]
    /// New group data (a GroupContextExtensions proposal), if it changes.
    public var groupData: MarmotGroupData?
    /// Include the SelfRemove proposals received this epoch by reference.
    public var includeSelfRemoves: Bool
    /// How the Welcome conveys the ratchet tree (PROTOCOL §5.11); engines without out-of-band
    /// trees ignore it.
    public var welcomeTree: WelcomeTreePolicy
    /// `false`: an add-only commit goes without an UpdatePath (RFC 9420 §12.4: a path is needed
    /// only for Update, Remove, GroupContextExtensions or no proposal), so its size does not grow
    /// with the group (PROTOCOL §5.11). Ignored when the proposals need a path.
    public var includeUpdatePath: Bool

    public init(adds: [KeyPackage] = [], removes: [[UInt8]] = [], groupData: MarmotGroupData? = nil, includeSelfRemoves: Bool = false,
                welcomeTree: WelcomeTreePolicy = .inline, includeUpdatePath: Bool = true) {
        self.includeUpdatePath = includeUpdatePath
        self.adds = adds
        self.removes = removes
        self.groupData = groupData
        self.includeSelfRemoves = includeSelfRemoves
        self.welcomeTree = welcomeTree
    }

    /// A pure self-update: a commit with a path and no proposal.
    public var isSelfUpdate: Bool { adds.isEmpty && removes.isEmpty && groupData == nil && !includeSelfRemoves }
}

/// What processing one MLSMessage did.
public enum MarmotEngineEvent: Sendable {
    case application(sender: [UInt8], data: [UInt8])
    /// A proposal was cached; `selfRemove` when it is the sender's SelfRemove.
    case proposal(sender: [UInt8], selfRemove: Bool)
    case commit(MarmotCommitInfo)
}

/// The parts of a processed commit the Marmot rules look at.
public struct MarmotCommitInfo: Sendable, Hashable {
    public let committer: [UInt8]
    public let added: [[UInt8]]
    public let removed: [[UInt8]]
    public let extensionsChanged: Bool
    /// No proposal other than Updates of the committer's own leaf (a path-only commit included).
    public let onlyOwnUpdate: Bool
    /// Every proposal is a SelfRemove (and there is at least one).
    public let onlySelfRemoves: Bool

    public init(committer: [UInt8], added: [[UInt8]], removed: [[UInt8]], extensionsChanged: Bool, onlyOwnUpdate: Bool, onlySelfRemoves: Bool) {
        self.committer = committer
        self.added = added
        self.removed = removed
        self.extensionsChanged = extensionsChanged
        self.onlyOwnUpdate = onlyOwnUpdate
        self.onlySelfRemoves = onlySelfRemoves
    }
}
