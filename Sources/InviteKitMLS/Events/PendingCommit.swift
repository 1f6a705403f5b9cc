import InviteKitNostr

/// A commit wrapped in its kind-445 event, waiting for relays to acknowledge it.
public struct PendingCommit: Sendable {
    /// Publish this.
    public let event: NostrEvent
    public let bundle: CommitBundle
    let sealed: [UInt8]
}
