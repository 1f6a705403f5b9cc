import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// An own Commit between "published" and its first relay `OK` (MIP-03): nothing it changes is
/// applied before that `OK`, and a node keeps at most one per group in flight.
enum NodePendingCommit: Sendable {
    /// Adds joiners; the `OK` releases their Welcomes.
    case join(PendingJoin)
    /// Adds nobody: a removal, a self-update, or the members' leave requests committed.
    case change(groupID: String, commit: MarmotPendingCommit<MLSGroupState>)

    var groupID: String {
        switch self {
        case .join(let p): return p.conversationID
        case .change(let id, _): return id
        }
    }

    var commit: MarmotPendingCommit<MLSGroupState> {
        switch self {
        case .join(let p): return p.commit
        case .change(_, let c): return c
        }
    }

    var event: NostrEvent { commit.event }

    /// The members this Commit adds (x-only keys), from its KeyPackage events.
    var addedMembers: [Secp256k1.XOnlyPublicKey] { commit.keyPackageEvents.compactMap { try? $0.authorKey() } }

    /// Its `pending_commits` row: a join names its (first) joiner and KeyPackage event, a change
    /// neither; the payload is the engine's pending commit, so it survives a restart.
    func record(requestID: String?, now: Int64) -> PendingCommitRecord {
        var joiner: [UInt8]?
        var keyPackageEventID: String?
        if case .join(let p) = self { joiner = p.joiner.rawRepresentation; keyPackageEventID = p.keyPackageEventID }
        return PendingCommitRecord(commitEventID: event.id, groupID: groupID, epoch: commit.fromEpoch, requestID: requestID, joiner: joiner,
                                   keyPackageEventID: keyPackageEventID, payload: commit.serialized(), createdAt: now)
    }

    /// Reads a waiting row back (``record(requestID:now:)``).
    init(restoring row: PendingCommitRecord) throws {
        let commit = try MarmotPendingCommit<MLSGroupState>(serialized: row.payload)
        if let joiner = row.joiner, let keyPackageEventID = row.keyPackageEventID {
            self = .join(PendingJoin(conversationID: row.groupID, joiner: try Secp256k1.XOnlyPublicKey(rawRepresentation: joiner),
                                     keyPackageEventID: keyPackageEventID, inviteTag: nil, commit: commit))
        } else {
            self = .change(groupID: row.groupID, commit: commit)
        }
    }
}
