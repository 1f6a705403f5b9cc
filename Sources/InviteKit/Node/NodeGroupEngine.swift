import InviteKitCrypto

/// The narrow seam between the node and the group engine, so replacing the engine (RFC 9420 in
/// InviteKitMLS) changes one conformance. The current private-format engine cannot serialize its
/// session, so its groups live in memory and their rows hold metadata only (`engine_version` 0 =
/// "no resumable state"); an engine that serializes sets ``serializedState`` and a version ≥ 1.
protocol NodeGroupEngine: Sendable {
    /// Stored in `groups.engine`.
    static var engineName: String { get }
    /// Stored in `groups.engine_version`; 0 means the state bytes cannot be resumed.
    static var engineVersion: Int { get }
    /// The engine's opaque state for `groups.state`, or `nil` when it cannot serialize.
    func serializedState() -> SecureBytes?
    var epoch: UInt64 { get }
}
