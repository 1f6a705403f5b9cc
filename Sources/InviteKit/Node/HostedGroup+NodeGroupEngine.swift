import InviteKitCrypto

/// A hosted group is stored as its Marmot group; name, tag and relays have their own columns.
extension HostedGroup: NodeGroupEngine {
    static var engineName: String { MarmotMLSGroup.engineName }
    static var engineVersion: Int { MarmotMLSGroup.engineVersion }
    func serializedState() -> SecureBytes? { group.serializedState() }
    var epoch: UInt64 { group.epoch }
}
