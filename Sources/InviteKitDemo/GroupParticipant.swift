import InviteKit
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS
import InviteKitRelay

/// One person in a story or test: a Nostr key, a KeyPackage store, maybe a Marmot group, and
/// the relays. Used sequentially (one task at a time).
package final class GroupParticipant: @unchecked Sendable {
    // Safe: a story or test drives one participant from one task at a time (see above).
    package let name: String
    package let key: Secp256k1.PrivateKey
    package let keyPackages = MemoryKeyPackageStore()
    package let pool: RelayPool
    package var group: MarmotMLSGroup?
    /// Kind-445 events already applied or produced here.
    private var processed = Set<String>()
    private let rng: RandomSource

    package init(name: String, key: Secp256k1.PrivateKey, pool: RelayPool, rng: RandomSource = SystemRandom()) {
        self.name = name; self.key = key; self.pool = pool; self.rng = rng
    }

    package var pubkey: String { key.publicKey.hex }

    /// Creates, stores and publishes a KeyPackage event.
    package func publishKeyPackage(lastResort: Bool = false, now: Int64 = UnixTime.now()) async throws -> NostrEvent {
        let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: pool.urls, lastResort: lastResort, now: now, rng: rng)
        try keyPackages.save(bundle)
        try await publishRequired(event)
        return event
    }

    /// Publishes and requires at least one relay to accept (typed error otherwise).
    @discardableResult
    package func publishRequired(_ event: NostrEvent) async throws -> [String] {
        let result = await pool.publish(event)
        guard !result.succeeded.isEmpty else {
            throw result.failed.first?.error ?? RelayError(.noRelayAccepted, "no relay accepted \(event.id)")
        }
        if event.kind == MarmotGroupEvent.kind { processed.insert(event.id) }
        return result.succeeded.map(\.relay)
    }

    /// Every gift wrap addressed to this participant, opened as one batch.
    package func catchUpWraps() async -> BatchResult<UnwrappedGift, NostrEvent> {
        await GiftWrapCatchUp.run(pool: pool, recipient: key, timeout: .seconds(5)) { _ in }.batch
    }

    /// Applies the group's kind-445 events not seen yet, oldest first; returns what they held.
    @discardableResult
    package func syncGroup() async throws -> [MarmotOutcome] {
        guard var s = group else { return [] }
        let filter = NostrFilter(kinds: [MarmotGroupEvent.kind], tags: ["h": [Hex.encode(s.nostrGroupID)]])
        let events = await pool.fetch([filter], timeout: .seconds(5)).events
            .filter { !processed.contains($0.id) }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        var outcomes = [MarmotOutcome]()
        for e in events {
            processed.insert(e.id)
            outcomes += s.receive(event: e)
        }
        group = s
        return outcomes
    }

    /// Sends a text message to the group (kind 9 inner event in a kind-445 wrapper).
    package func send(_ text: String) async throws -> NostrEvent {
        guard var s = group else { throw MLSError(.notMember, "\(name) is not in a group") }
        let event = try s.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: text), rng: rng)
        group = s
        try await publishRequired(event)
        return event
    }

    /// A digest of the current epoch's exporter secret: equal for members on the same epoch.
    package var epochFingerprint: String? {
        guard let g = group else { return nil }
        let secret = g.state.exporter(label: "invitekit demo fingerprint", context: [], length: 32)
        return secret.withUnsafeBytes { Hex.encode(SHA256.hash(Array($0))) }
    }

    /// Marks a kind-445 event as already applied (the committer's own commit).
    package func markProcessed(_ eventID: String) { processed.insert(eventID) }
}
