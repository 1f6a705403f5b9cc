import InviteKitCrypto

/// The current (legacy, private-format) engine: no serialization yet.
extension HostedGroup: NodeGroupEngine {
    static var engineName: String { "invitekit-legacy" }
    static var engineVersion: Int { 0 }
    func serializedState() -> SecureBytes? { nil }
    var epoch: UInt64 { session.state.epoch }
}
