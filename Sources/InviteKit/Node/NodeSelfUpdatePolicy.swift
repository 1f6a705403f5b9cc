/// When the node rotates its own leaf in a group with a self-update Commit, for post-compromise
/// security (PROTOCOL §5.16): after `maxAge` seconds or `maxMessages` own messages since the last
/// own Commit that rotated it, whichever comes first. Driven by ``InviteKitNode/run()``; the
/// clock is stored (`group_self_updates`, docs/storage.md §6), so a restart does not reset it.
public struct NodeSelfUpdatePolicy: Sendable, Hashable {
    /// Seconds between rotations at most.
    public var maxAge: Int64
    /// Own messages between rotations at most.
    public var maxMessages: Int

    public init(maxAge: Int64, maxMessages: Int) {
        self.maxAge = maxAge
        self.maxMessages = maxMessages
    }

    /// Weekly, as the Marmot threat model recommends (`threat_model.md` T.6.4, "Rotate signing
    /// keys weekly in all active groups"), or after 1,000 own messages, so a busy member's
    /// messages do not stay under one leaf key for long.
    public static let standard = NodeSelfUpdatePolicy(maxAge: 7 * 24 * 3600, maxMessages: 1_000)

    /// Whether a rotation is due at `now` for a leaf last rotated at `lastUpdate`, with
    /// `messagesSent` own messages since.
    public func isDue(now: Int64, lastUpdate: Int64, messagesSent: Int) -> Bool {
        now - lastUpdate >= maxAge || messagesSent >= maxMessages
    }
}
