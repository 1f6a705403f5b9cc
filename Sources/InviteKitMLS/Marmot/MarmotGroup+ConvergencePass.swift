import InviteKitCrypto
import InviteKitNostr

/// What a convergence pass needs to know of one received event before it is resolved
/// (`protocol-core/convergence.md`, "Convergence policy" and "Fork detection").
public struct ConvergencePassInput: Sendable, Hashable {
    /// The epoch the Commit was made in (its MLS framing header).
    public let epoch: UInt64
    /// The Commit is for a retained epoch behind the current one: with the canonical suffix it
    /// makes two candidate branches, so the group is `Recovering` until the pass is resolved.
    public let divergent: Bool
}

extension MarmotGroup {
    /// Whether `event` is input a convergence pass holds: a current-profile Commit of this group,
    /// not seen before, that one of this member's epoch keys opens. Only the framing header is
    /// read; nothing is applied and the group is not changed, so the event is later handled
    /// exactly as if it had arrived then, its signature and envelope checked in full. The look
    /// costs a base64 decode and the AEAD opens, no signature check: only a member can make
    /// content that opens, and a forged wrapper around it is refused when the pass resolves.
    /// Anything else (application messages, proposals, junk, duplicates, MIP-profile groups,
    /// which keep §5.9's rule) is `nil`: it is handled at once.
    public func convergencePassInput(_ event: NostrEvent) -> ConvergencePassInput? {
        guard profile == .current, event.content.utf8.count <= MarmotProfile.maxGroupEventContentBytes,
              !seenLog.contains(eventID: event.id), !buffer.contains(eventID: event.id),
              event.kind == MarmotGroupEvent.kind, (try? MarmotGroupEvent.nostrGroupID(of: event)) == nostrGroupID,
              let sealed = Base64.decode(event.content), sealed.count >= GroupEventCipher.minimumSealedByteCount,
              !seenLog.contains(contentHash: SHA256.hash(Array(event.content.utf8))),
              let message = open(sealed), let header = try? MarmotMessageHeader(message),
              header.contentType == .commit, header.wireFormat == MarmotMessageHeader.publicMessage
        else { return nil }
        return ConvergencePassInput(epoch: header.epoch, divergent: header.epoch < epoch)
    }
}

extension MarmotGroup {
    /// The order in which a pass's frozen `batch` is handed to the engine so that the branch it
    /// selects is applied first and the others arrive as losing candidates: an app never sees a
    /// commit of the batch applied and then replaced inside one pass. The batch is resolved on a
    /// copy of this group (selection is ``BranchSelector``'s, the same for any order of the same
    /// input); the Commits on the copy's canonical path come first, in path order, the rest after,
    /// in arrival order. A batch of one is returned as it is, without the copy.
    public func resolutionOrder(of batch: [NostrEvent], now: Int64, budget: EventBudget = .standard) -> [NostrEvent] {
        guard batch.count > 1 else { return batch }
        var trial = self
        for event in batch { _ = trial.ingest(event: event, now: now, budget: budget) }
        var rank: [String: Int] = [:]
        for (i, s) in trial.snapshots.enumerated() where rank[s.eventID] == nil { rank[s.eventID] = i }
        return batch.enumerated().sorted {
            (rank[$0.element.id.lowercased()] ?? Int.max, $0.offset) < (rank[$1.element.id.lowercased()] ?? Int.max, $1.offset)
        }.map(\.element)
    }
}
