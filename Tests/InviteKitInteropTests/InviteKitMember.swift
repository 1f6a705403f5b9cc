import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// InviteKit's side of the scenarios. KeyPackages work with today's API; group operations need
/// the RFC 9420 engine being built on the `mls-engine` and `marmot` branches, and skip until it
/// is merged: then replace this class by `MarmotGroupMember<MLSGroupState>` (MarmotGroupMember.swift).
final class InviteKitMember: InteropMember {
    /// Whether the group operations below are wired to a Marmot-compatible engine.
    static let engineAvailable = false
    static let engineMissing = "needs InviteKit's RFC 9420 engine behind MarmotGroup: MLSGroupState (mls-engine branch) "
        + "does not conform to MarmotEngine yet, and the legacy GroupSession speaks a private format MDK cannot read"

    /// Skips the calling scenario before it touches MDK when the engine is not there yet.
    static func requireEngine(file: StaticString = #filePath, line: UInt = #line) throws {
        if !engineAvailable { throw XCTSkip(engineMissing, file: file, line: line) }
    }

    let label: String
    let key: Secp256k1.PrivateKey
    var pubkey: String { key.publicKey.hex }
    /// KeyPackages this member published, by reference, for the joins that consume them.
    private(set) var bundles: [String: KeyPackageBundle] = [:]

    init(label: String, key: Secp256k1.PrivateKey = Secp256k1.PrivateKey()) {
        self.label = label
        self.key = key
    }

    func keyPackageEvent(relays: [String]) throws -> NostrEvent {
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false,
                                                         now: UnixTime.now())
        bundles[Hex.encode(bundle.reference)] = bundle
        return event
    }

    private func missing() -> Error { XCTSkip(Self.engineMissing) }

    func createGroup(name: String, relays: [String], admins: [String], inviting keyPackages: [NostrEvent]) throws -> (group: String, change: InteropChange) { throw missing() }
    func addMembers(_ keyPackages: [NostrEvent], group: String) throws -> InteropChange { throw missing() }
    func removeMembers(_ pubkeys: [String], group: String) throws -> InteropChange { throw missing() }
    func selfUpdate(group: String) throws -> InteropChange { throw missing() }
    func mergePendingCommit(group: String) throws -> [InteropChange.Welcome] { throw missing() }
    func join(welcome wrap: NostrEvent) throws -> String { throw missing() }
    func send(_ content: String, group: String) throws -> NostrEvent { throw missing() }
    func process(_ event: NostrEvent) throws -> InteropOutcome { throw missing() }
    func members(group: String) throws -> Set<String> { throw missing() }
    func epoch(group: String) throws -> UInt64 { throw missing() }
}
