import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

/// Offer evidence (PROTOCOL §5.14.15, "Offer evidence"). `features/group-invite-links.md`
/// ("Consent and request admission") has an admin validate a request's offer evidence before the
/// request is actionable, and `transports/nostr-invite-links.md` says how: fetch the exact kind
/// 30443 event the offer names and verify its id, signature, author, KeyPackageRef and leaf
/// identity. Admission itself reads no relay (a wrap costs one failed check, never a fetch), so
/// the run loop checks admitted requests' offers afterwards, a few at a time, in a task of its
/// own. Only a `valid` offer is processed automatically; manual approval fetches the offer again,
/// since admitting a member needs it valid now. A missing offer is a recoverable problem, checked
/// again with a growing interval; an invalid one stays so until a refresh offers another package.
extension InviteKitNode {
    /// Offers checked per pass, so a burst of requests does not hold a fetch open for each.
    static let offerChecksPerPass = 4

    /// One offer to check: the request governing its context and where to look for the event.
    struct DueOfferCheck: Sendable {
        let groupID: String
        let request: InviteRequestV1
        let relays: [String]
        let attempts: Int
    }

    /// Starts a pass over the offers due, unless one is running (only while ``run()`` runs).
    func startInviteOfferChecks() throws {
        guard runtime != nil, runtime?.offerChecking == false else { return }
        let due = try dueInviteOfferChecks(now: currentTime())
        guard !due.isEmpty else { return }
        runtime?.offerChecking = true
        Task { [weak self] in await self?.checkInviteOffers(due) }
    }

    /// The governing requests of open (or declined, still manually approvable) contexts of active
    /// links whose offer has no check yet, or whose missing offer is due again; at most
    /// ``offerChecksPerPass``, groups in id order.
    private func dueInviteOfferChecks(now: Int64) throws -> [DueOfferCheck] {
        let links = try store.read { tx in try tx.inviteLinks.all() }.filter { $0.state == .active }
        let today = UInt64(max(0, now))
        var due: [DueOfferCheck] = []
        for groupID in Set(links.map(\.groupID)).sorted() {
            guard let entry = registry[groupID], !entry.removed, entry.group.isAdmin else { continue }
            let (ledger, checks) = try store.read { tx in (try Self.ledger(groupID, in: tx), try tx.inviteLinks.offerChecks(groupID: groupID)) }
            let records = ledger.records.values.sorted { $0.context.encoded.lexicographicallyPrecedes($1.context.encoded) }
            for record in records where [.open, .declined].contains(record.state(at: today)) {
                guard let request = record.governingRequest else { continue }
                let check = checks[request.requestHash]
                if let check, check.outcome != .unavailable || check.nextCheckAt > now { continue }
                guard let link = links.first(where: { $0.linkID == Hex.encode(request.tbs.context.linkID) }),
                      let generation = try? InviteLinkGeneration(serialized: link.generation) else { continue }
                due.append(DueOfferCheck(groupID: groupID, request: request, relays: entry.relays + generation.code.requestRelays,
                                         attempts: check?.attempts ?? 0))
                if due.count == Self.offerChecksPerPass { return due }
            }
        }
        return due
    }

    /// Fetches and validates each offer and records the outcome; then prunes the checks of
    /// requests that no longer govern a context.
    private func checkInviteOffers(_ due: [DueOfferCheck]) async {
        for d in due {
            var outcome = InviteOfferCheckRecord.Outcome.valid, reason: String?
            do {
                _ = try await fetchOffer(d.request, groupID: d.groupID, relays: d.relays)
            } catch {
                (outcome, reason) = Self.offerProblem(error)
            }
            do {
                try recordOfferCheck(d.request, groupID: d.groupID, outcome, reason: reason, attempts: d.attempts + 1)
            } catch {
                report(InviteKitError.from(error), eventID: nil)
            }
        }
        runtime?.offerChecking = false
        wake()
    }

    /// How a failed fetch of an offer is recorded: no such event is `unavailable` (recoverable),
    /// anything else `invalid`; the reason is the refusal's stable code.
    static func offerProblem(_ error: any Error) -> (InviteOfferCheckRecord.Outcome, String) {
        let e = InviteKitError.from(error)
        return (e.code == .keyPackageUnavailable ? .unavailable : .invalid, e.underlyingCode ?? e.codeName)
    }

    /// Stores what a check (or a manual approval's fetch) found. A missing offer is due again
    /// after 5 s, doubling per attempt up to an hour.
    func recordOfferCheck(_ request: InviteRequestV1, groupID: String, _ outcome: InviteOfferCheckRecord.Outcome, reason: String?,
                          attempts: Int) throws {
        let now = currentTime()
        let wait = min(Int64(3600), Int64(5) << Int64(min(attempts - 1, 10)))
        let record = InviteOfferCheckRecord(requestHash: request.requestHash, groupID: groupID, outcome: outcome, reason: reason,
                                            attempts: attempts, nextCheckAt: now + wait, checkedAt: now)
        try store.write { tx in
            try tx.inviteLinks.recordOfferCheck(record)
            let ledger = try Self.ledger(groupID, in: tx)
            try tx.inviteLinks.pruneOfferChecks(groupID: groupID, keeping: Set(ledger.records.values.compactMap(\.governingRequest?.requestHash)))
        }
    }
}
