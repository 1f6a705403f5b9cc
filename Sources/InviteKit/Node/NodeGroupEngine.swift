import InviteKitCrypto

/// The narrow seam between the node and the group engine, so replacing the engine changes one
/// conformance (`MarmotGroup+NodeGroupEngine.swift`). A group's row holds the engine's state
/// bytes with the engine's name and format version, and is read back when the node opens.
protocol NodeGroupEngine: Sendable {
    /// Stored in `groups.engine`.
    static var engineName: String { get }
    /// Stored in `groups.engine_version`: the engine's serialization format.
    static var engineVersion: Int { get }
    /// The engine's opaque state for `groups.state`.
    func serializedState() -> SecureBytes?
    var epoch: UInt64 { get }
}
