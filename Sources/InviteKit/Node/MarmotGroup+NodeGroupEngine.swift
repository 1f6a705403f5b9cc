import InviteKitCrypto
import InviteKitMLS

/// The node stores a group as ``MarmotGroup/serialized()`` (engine state, retained epochs,
/// replay digests, buffered events), so a group survives a restart.
extension MarmotGroup: NodeGroupEngine where Engine == MLSGroupState {
    static var engineName: String { "marmot-mls" }
    static var engineVersion: Int { Int(serializationVersion) }
    func serializedState() -> SecureBytes? { serialized() }

    /// Reads a `groups.state` written by this engine, this format or an older one it reads
    /// (`readableSerializationVersions`); anything else is refused with a typed error.
    static func restore(engine: String, version: Int, state: SecureBytes) throws -> MarmotGroup {
        guard engine == engineName, readableSerializationVersions.contains(where: { Int($0) == version }) else {
            throw MLSError(.invalidValue, "stored group engine \(engine) v\(version) is not \(engineName) v\(engineVersion)")
        }
        return try MarmotGroup(serialized: state)
    }
}
