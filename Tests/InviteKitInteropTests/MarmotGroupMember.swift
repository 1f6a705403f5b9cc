import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// InviteKit's side of the scenarios over ``MarmotGroup`` (the marmot branch's Nostr binding),
/// generic over the RFC 9420 engine (``InviteKitMember`` fixes it to `MLSGroupState`).
final class MarmotGroupMember<Engine: MarmotEngine>: InteropMember {
    let label: String
    let key: Secp256k1.PrivateKey
    var pubkey: String { key.publicKey.hex }
    private let store = MemoryKeyPackageStore()
    private var groups: [String: MarmotGroup<Engine>] = [:]
    private var pending: [String: MarmotPendingCommit<Engine>] = [:]
    /// Relays taken as having acknowledged every commit: the scenarios hand events over directly.
    private let acknowledgingRelays = InteropScenarios.relays

    init(label: String, key: Secp256k1.PrivateKey = Secp256k1.PrivateKey()) {
        self.label = label
        self.key = key
    }

    func keyPackageEvent(relays: [String]) throws -> NostrEvent {
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: .mip)
        try store.save(bundle)
        return event
    }

    private func group(_ id: String) throws -> MarmotGroup<Engine> {
        guard let g = groups[id] else { throw MLSError(.invalidValue, "\(label) knows no group \(id)") }
        return g
    }

    private static func keys(_ pubkeys: [String]) throws -> [[UInt8]] {
        try pubkeys.map { hex in
            guard let k = Hex.decode(hex, count: 32) else { throw MLSError(.invalidKey, "not a 32-byte hex key: \(hex)") }
            return k
        }
    }

    func createGroup(name: String, relays: [String], admins: [String], inviting keyPackages: [NostrEvent]) throws -> (group: String, change: InteropChange) {
        // The creator's own leaf comes from a KeyPackage nobody else sees.
        let own = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: .mip).bundle
        let g = try MarmotGroup<Engine>.create(creator: own, name: name, otherAdmins: try Self.keys(admins.filter { $0 != pubkey }), relays: relays)
        let id = Hex.encode(g.nostrGroupID)
        groups[id] = g
        guard !keyPackages.isEmpty else { return (id, InteropChange(commit: nil, welcomes: [])) }
        return (id, try addMembers(keyPackages, group: id))
    }

    func addMembers(_ keyPackages: [NostrEvent], group id: String) throws -> InteropChange {
        let validated = try keyPackages.map { try KeyPackageValidator.validate($0) }
        let p = try group(id).commit(adding: validated)
        pending[id] = p
        return InteropChange(commit: p.event, welcomes: [])
    }

    func removeMembers(_ pubkeys: [String], group id: String) throws -> InteropChange {
        let p = try group(id).commit(removing: try Self.keys(pubkeys))
        pending[id] = p
        return InteropChange(commit: p.event, welcomes: [])
    }

    func selfUpdate(group id: String) throws -> InteropChange {
        let p = try group(id).selfUpdate()
        pending[id] = p
        return InteropChange(commit: p.event, welcomes: [])
    }

    func mergePendingCommit(group id: String) throws -> [InteropChange.Welcome] {
        guard let p = pending.removeValue(forKey: id) else { return [] }
        var g = try group(id)
        let wraps = try g.confirmPublished(p, acknowledgedBy: acknowledgingRelays, wrappingWelcomesFrom: key)
        groups[id] = g
        // confirmPublished wraps one Welcome per KeyPackage event, in their order.
        return zip(p.keyPackageEvents, wraps).map { InteropChange.Welcome(recipient: $0.pubkey, wrap: $1) }
    }

    func join(welcome wrap: NostrEvent) throws -> String {
        let g = try MarmotGroup<Engine>.join(giftWrap: wrap, recipient: key, store: store)
        let id = Hex.encode(g.nostrGroupID)
        groups[id] = g
        return id
    }

    func send(_ content: String, group id: String) throws -> NostrEvent {
        var g = try group(id)
        let event = try g.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: content))
        groups[id] = g
        return event
    }

    func process(_ event: NostrEvent) throws -> InteropOutcome {
        let id = Hex.encode(try MarmotGroupEvent.nostrGroupID(of: event))
        var g = try group(id)
        let outcomes = g.receive(event: event)
        groups[id] = g
        // The first outcome is the event's own; later ones are buffered events it unlocked.
        switch outcomes.first {
        case let .message(rumor, _)?: return .message(sender: rumor.pubkey, content: rumor.content)
        case .commitApplied?, .removed?: return .commit
        case .leaveRequest?: return .proposal
        case let other?: return .rejected("\(other)")
        case nil: return .rejected("no outcome")
        }
    }

    func members(group id: String) throws -> Set<String> { Set(try group(id).state.memberIdentities.map { Hex.encode($0) }) }

    func epoch(group id: String) throws -> UInt64 { try group(id).epoch }
}
