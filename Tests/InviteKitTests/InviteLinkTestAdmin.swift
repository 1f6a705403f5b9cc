import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// The admin side of an invite link built only from the protocol core (issue 29): a Marmot group
/// whose component 0x800e holds one generation's entry, its hand-published kind 30444
/// descriptor, and requests answered by hand (an Add Commit, its Welcome and a kind 460 status).
/// Enough for a joiner node to be tested against the wire, with no admin node.
struct InviteLinkTestAdmin {
    let key: Secp256k1.PrivateKey
    var group: MarmotMLSGroup
    let generation: InviteLinkGeneration
    /// Where the admin reads and writes (the joiner's code names other URLs; the test's connector
    /// maps them here).
    let connect: @Sendable () -> any NostrRelayConnection
    let now: Int64

    /// A group with `entry` in its component (by default the generation's own), activated by a
    /// policy Commit applied at once (no relay needed for the admin's own state).
    init(name: String = "Hikers", expiresAt: UInt64 = 0, codeRelays: [String], groupRelays: [String], entry: ((InviteLinkGeneration) throws -> InviteLinkV1)? = nil,
         reusing generation: InviteLinkGeneration? = nil, seed: UInt64, now: Int64, connect: @escaping @Sendable () -> any NostrRelayConnection) throws {
        let rng = SeededRandom(seed: seed)
        key = Secp256k1.PrivateKey(using: rng)
        self.now = now
        self.connect = connect
        let (_, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: [], lastResort: false, now: now, rng: rng)
        group = try MarmotMLSGroup.create(creator: bundle, name: name, relays: groupRelays, rng: rng)
        self.generation = try generation ?? InviteLinkGeneration.create(name: name, description: "weekend walks", expiresAt: expiresAt,
                                                                      approvalMode: .manual, requestRelays: codeRelays, rng: rng)
        var data = group.groupData
        data.inviteLinks = try InviteLinksV1(links: [try entry?(self.generation) ?? self.generation.entry])
        let policy = try group.commit(groupData: data, now: now, rng: rng)
        _ = try group.confirmPublished(policy, acknowledgedBy: ["wss://admin.invitekit.test"], now: now)
    }

    var code: String { generation.code.bech32m }
    var preview: InvitePreviewV1 { generation.preview! }

    func publish(_ event: NostrEvent) async {
        let pool = RelayPool([connect()])
        _ = await pool.publish(event, timeout: .seconds(10))
        await pool.close()
    }

    func fetch(_ filter: NostrFilter) async -> [NostrEvent] {
        let pool = RelayPool([connect()])
        let result = await pool.fetch([filter], timeout: .seconds(10))
        await pool.close()
        return result.events
    }

    func publishDescriptor(_ preview: InvitePreviewV1? = nil, createdAt: Int64? = nil) async throws {
        await publish(try InvitePreviewDescriptorEvent.make(preview ?? self.preview, previewKey: generation.code.previewKey,
                                                            inboxKey: try generation.inboxKey, now: createdAt ?? now))
    }

    /// Every request or withdrawal wrapped to the inbox so far, opened with the inbox key.
    func requests() async throws -> [NostrInviteRequestV1.Operation] {
        let inbox = try generation.inboxKey
        let wraps = await fetch(NostrFilter(kinds: [GiftWrap.wrapKind]).tag("p", [inbox.publicKey.hex]))
        return try wraps.map { try InviteRequestGiftWrap.open($0, inboxKey: inbox) }
    }

    /// Approves `request`: an Add Commit of its offered KeyPackage (fetched by event id), applied,
    /// then the Welcome and an `invited` status naming it, both published.
    mutating func approve(_ request: InviteRequestV1, sendStatus: Bool = true) async throws {
        let id = Hex.encode(request.tbs.offer.keyPackageEventID)
        guard let kpEvent = await fetch(NostrFilter(ids: [id])).first else { throw MLSError(.notFound, "offered KeyPackage \(id) not on the relay") }
        let validated = try KeyPackageValidator.validate(kpEvent, now: now)
        let add = try group.commit(adding: [validated], now: now)
        let welcomes = try group.confirmPublished(add, acknowledgedBy: ["wss://admin.invitekit.test"], wrappingWelcomesFrom: key, now: now)
        if sendStatus {
            let status = try InviteStatusV1(context: request.tbs.context, requestHash: request.requestHash, outcome: .invited,
                                            commitHash: SHA256.hash(Array(add.event.content.utf8)), welcomeHash: SHA256.hash(add.welcome ?? []))
            await publish(try InviteStatusGiftWrap.make(status, admin: key, now: now))
        }
        for w in welcomes { await publish(w) }
    }

    func send(_ outcome: InviteStatusV1.Outcome, for request: InviteRequestV1) async throws {
        let status = try InviteStatusV1(context: request.tbs.context, requestHash: request.requestHash, outcome: outcome)
        await publish(try InviteStatusGiftWrap.make(status, admin: key, now: now))
    }
}
