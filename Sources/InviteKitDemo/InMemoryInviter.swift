import Foundation
import InviteKit

/// An inviter that keeps its hosted groups in memory, for the demo and tests that run the join
/// flow without a node: ``JoinRequestProcessor``'s decisions over a dictionary, plus the
/// in-memory duplicate check a node keeps in its store. Apps use ``InviteKitNode``.
package final class InMemoryInviter: @unchecked Sendable {
    // Safe: `groups` and `seen` are only touched under `lock`.
    private let lock = NSLock()
    private var groups: [String: HostedGroup] = [:]
    private var seen = Set<String>()
    package let processor: JoinRequestProcessor

    package init(inviter: Secp256k1.PrivateKey, consumedTags: any ConsumedTagStore,
                clock: @escaping @Sendable () -> Int64 = { UnixTime.now() }, rng: RandomSource = SystemRandom()) {
        processor = JoinRequestProcessor(inviter: inviter, consumedTags: consumedTags, clock: clock, rng: rng)
    }

    package var inviter: Secp256k1.PrivateKey { processor.inviter }

    package func host(_ group: HostedGroup) { lock.withLock { groups[group.conversationID] = group } }
    package func group(_ id: String) -> HostedGroup? { lock.withLock { JoinRequestProcessor.find(id, in: Array(groups.values)) } }
    package func removeGroup(_ id: String) { lock.withLock { _ = groups.removeValue(forKey: id) } }
    package func update(_ id: String, group: MarmotMLSGroup) { lock.withLock { groups[id]?.group = group } }

    /// Revokes every outstanding invite of a group by rotating its tag; returns the new tag.
    @discardableResult
    package func rotateTag(_ id: String, using rng: RandomSource = SystemRandom()) -> String? {
        lock.withLock {
            guard groups[id] != nil else { return nil }
            let tag = InviteTag.generate(using: rng)
            groups[id]!.currentTag = tag
            return tag
        }
    }

    package func invite(for id: String, options: InviteOptions = InviteOptions(), using rng: RandomSource? = nil) throws -> SignedInvite {
        guard let g = group(id) else { throw InviteKitError(.conversationNotFound, underlyingCode: "conversation_not_found") }
        return try processor.invite(for: g, options: options, using: rng)
    }

    /// Decides one gift-wrapped message once (a second copy is `.ignored(.duplicate)`).
    package func process(_ gift: UnwrappedGift, busy: Set<String> = []) -> JoinDecision {
        if gift.sender == inviter.publicKey { return .ignored(.ownMessage) }
        guard lock.withLock({ seen.insert(gift.rumor.id).inserted }) else { return .ignored(.duplicate) }
        let decision = processor.process(gift, hosted: lock.withLock { Array(groups.values) }, busy: busy)
        if case .ignored(.commitPending) = decision { _ = lock.withLock { seen.remove(gift.rumor.id) } }
        return decision
    }

    package func approve(_ approval: PendingApproval) throws -> PendingJoin {
        try processor.approve(approval, in: try required(approval.conversationID))
    }

    package func add(_ keyPackageEvent: NostrEvent, to id: String, asAdmin: Bool = false) throws -> PendingJoin {
        try processor.add(keyPackageEvent, to: try required(id), asAdmin: asAdmin)
    }

    package func promote(_ member: Secp256k1.XOnlyPublicKey, in id: String) throws -> PendingGroupChange {
        try processor.promote(member, in: try required(id))
    }

    package func confirmPublished(change: PendingGroupChange, acknowledgedBy relays: [String]) throws {
        try mutate(change.conversationID) { try processor.confirmPublished(change: change, in: &$0, acknowledgedBy: relays) }
    }

    package func confirmPublished(_ pending: PendingJoin, acknowledgedBy relays: [String]) throws -> [NostrEvent] {
        try mutate(pending.conversationID) { try processor.confirmPublished(pending, in: &$0, acknowledgedBy: relays) }
    }

    package func receive(_ event: NostrEvent, conversationID id: String) throws -> JoinRequestProcessor.GroupReceipt {
        try mutate(id) { try processor.receive(event, in: &$0) }
    }

    package func readd(_ overtaken: PendingJoin) throws -> PendingJoin? {
        try processor.readd(overtaken, in: try required(overtaken.conversationID))
    }

    package func refusal(of pending: PendingJoin, reason: String) -> NostrEvent? { processor.refusal(of: pending, reason: reason) }

    private func required(_ id: String) throws -> HostedGroup {
        guard let g = group(id) else { throw InviteKitError(.conversationNotFound) }
        return g
    }

    /// Applies `body` to a copy and stores it only when `body` succeeded.
    private func mutate<T>(_ id: String, _ body: (inout HostedGroup) throws -> T) throws -> T {
        try lock.withLock {
            guard var g = JoinRequestProcessor.find(id, in: Array(groups.values)) else { throw InviteKitError(.conversationNotFound) }
            let result = try body(&g)
            groups[g.conversationID] = g
            return result
        }
    }
}
