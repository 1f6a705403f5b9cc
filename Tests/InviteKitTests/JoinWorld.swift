import XCTest
import InviteKitTestSupport
@testable import InviteKit
import InviteKitDemo

/// An inviter (Ada) hosting a group with 3 members, an invitee (Dee), and an in-memory relay.
final class JoinWorld {
    let relay = InMemoryRelay(url: "wss://in-memory.invitekit.test")
    let pool: RelayPool
    let rng: SeededRandom
    let ada: GroupParticipant
    let members: [GroupParticipant]
    let dee: GroupParticipant
    let consumed = InMemoryConsumedTagStore()
    let processor: InMemoryInviter
    var hosted: HostedGroup
    var now: Int64 = UnixTime.now()

    init(seed: UInt64) async throws {
        let rng = SeededRandom(seed: seed)
        let pool = RelayPool([relay])
        self.rng = rng
        self.pool = pool
        let ada = GroupParticipant(name: "Ada", key: Secp256k1.PrivateKey(using: rng), pool: pool, rng: rng)
        self.ada = ada
        members = ["Ben", "Cy", "Dan"].map { GroupParticipant(name: $0, key: Secp256k1.PrivateKey(using: rng), pool: pool, rng: rng) }
        dee = GroupParticipant(name: "Dee", key: Secp256k1.PrivateKey(using: rng), pool: pool, rng: rng)
        processor = InMemoryInviter(inviter: ada.key, consumedTags: consumed, rng: rng)
        hosted = try HostedGroup.create(creator: ada.key, name: nil, relays: pool.urls, rng: rng)
        ada.group = hosted.group
        processor.host(hosted)
        for m in members { try await add(m) }
        for m in members { try await m.syncGroup() }
        hosted.group = ada.group!
    }

    /// Ada adds `p` directly from its KeyPackage (how the 3 members got in).
    func add(_ p: GroupParticipant, asAdmin: Bool = false) async throws {
        let kp = try await p.publishKeyPackage()
        let pending = try processor.add(kp, to: hosted.conversationID, asAdmin: asAdmin)
        let acks = try await ada.publishRequired(pending.event)
        for w in try processor.confirmPublished(pending, acknowledgedBy: acks) { try await ada.publishRequired(w) }
        ada.group = processor.group(hosted.conversationID)?.group
        for gift in await p.catchUpWraps().succeeded {
            if case .welcome = try SealedMessage(gift), p.group == nil {
                p.group = try MarmotMLSGroup.join(gift: gift, recipient: p.key, store: p.keyPackages)
            }
        }
        for m in members where m !== p && m.group != nil { try await m.syncGroup() }
    }

    func invite(singleUse: Bool = false, expiresIn: Int64 = 3600, conversationExpiresIn: Int64? = nil, by key: Secp256k1.PrivateKey? = nil) throws -> String {
        let options = InviteOptions(relays: pool.urls, expiresAtUnix: now + expiresIn,
                                    conversationExpiresAtUnix: conversationExpiresIn.map { now + $0 }, singleUse: singleUse, tag: hosted.currentTag)
        return try SignedInvite.create(conversationID: hosted.conversationID, creator: key ?? ada.key, options: options, using: rng).url()
    }

    /// Dee sends a join request for `url`; returns her client (nil outgoing means it refused locally).
    func deeRequests(_ url: String, client: inout JoinClient, at time: Int64? = nil) async throws -> JoinClient.Outgoing? {
        guard let out = try? client.start(invite: url, now: time ?? now) else { return nil }
        try await dee.publishRequired(out.keyPackageEvent)
        try await dee.publishRequired(out.joinRequest)
        return out
    }

    /// Ada handles every gift wrap addressed to her; publishes replies, commits and Welcomes.
    @discardableResult
    func adaProcesses() async throws -> [JoinDecision] {
        var decisions = [JoinDecision]()
        for gift in await ada.catchUpWraps().succeeded {
            let d = processor.process(gift)
            decisions.append(d)
            switch d {
            case .rejected(let reply, _): try await ada.publishRequired(reply)
            case .accepted(let pending):
                let acks = try await ada.publishRequired(pending.event)
                for w in try processor.confirmPublished(pending, acknowledgedBy: acks) { try await ada.publishRequired(w) }
                ada.group = processor.group(hosted.conversationID)?.group
            default: break
            }
        }
        return decisions
    }

    /// Wraps Ada has sent to Dee (replies or Welcomes).
    func wrapsToDee() async -> [NostrEvent] {
        await relay.events(matching: [GiftWrapCatchUp.filter(for: dee.key.publicKey)])
    }
}
