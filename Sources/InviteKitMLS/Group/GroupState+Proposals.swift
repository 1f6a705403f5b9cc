import InviteKitCrypto

extension GroupState {
    /// A fixed scalar for testing X25519 public keys: a low-order point gives the all-zero output
    /// for every (clamped) scalar, so one multiplication tells whether HPKE to it can ever work. A
    /// member with such a key would make every later commit fail to build.
    private static let probe: X25519.PrivateKey = try! X25519.PrivateKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))

    static func isUsableX25519(_ key: [UInt8]) -> Bool { key.count == 32 && (try? probe.sharedSecret(with: key)) != nil }

    /// Validates and applies `proposals` committed by `committer` (group.md §Commit rules).
    func apply(_ proposals: [LegacyProposal], committer: Int) throws -> AppliedRoster {
        let committerMember = members[committer]
        if proposals.isEmpty || proposals.contains(where: \.needsAdmin) {
            guard committerMember.isAdmin else { throw GroupError(.notAdmin, "committer is not an admin") }
        }
        var newMembers = members
        var hashes = memberHashes
        var updates = 0
        var removeSet: [[UInt8]] = []
        for p in proposals {
            switch p {
            case .update(let e, let s):
                updates += 1
                guard updates == 1 else { throw GroupError(.invalidProposal, "more than one update") }
                guard GroupState.isUsableX25519(e), s.count == 32 else { throw GroupError(.invalidProposal, "update keys are not usable") }
                newMembers[committer].encryptionKey = e
                newMembers[committer].signatureKey = s
                hashes[committer] = newMembers[committer].hash
            case .remove(let id), .selfRemove(let id):
                guard id != committerMember.identity else { throw GroupError(.invalidProposal, "committer cannot remove itself") }
                guard !removeSet.contains(id) else { throw GroupError(.invalidProposal, "member removed twice") }
                guard index(of: id) != nil else { throw GroupError(.invalidProposal, "removed identity is not a member") }
                removeSet.append(id)
            case .add:
                break
            }
        }
        if !removeSet.isEmpty {
            var keptMembers: [GroupMember] = []
            var keptHashes: [[UInt8]] = []
            keptMembers.reserveCapacity(newMembers.count)
            keptHashes.reserveCapacity(newMembers.count)
            for (m, h) in zip(newMembers, hashes) where !removeSet.contains(m.identity) {
                keptMembers.append(m)
                keptHashes.append(h)
            }
            newMembers = keptMembers
            hashes = keptHashes
        }
        let newCommitter = removeSet.isEmpty ? committer : newMembers.firstIndex { $0.identity == committerMember.identity }!
        var added: [(Int, KeyPackage)] = []
        if proposals.contains(where: { if case .add = $0 { return true } else { return false } }) {
            let addCount = proposals.reduce(0) { if case .add = $1 { return $0 + 1 } else { return $0 } }
            // Few adds: scan the roster; many adds: hash it once.
            var present: Set<[UInt8]> = addCount > 8 ? Set(newMembers.map(\.identity)) : []
            var addedIDs: [[UInt8]] = []
            for case .add(let kp, let admin) in proposals {
                do { try kp.verify() } catch { throw GroupError(.invalidProposal, "KeyPackage: \(error)") }
                guard kp.cipherSuite == cipherSuite else { throw GroupError(.invalidProposal, "KeyPackage cipher suite") }
                // Receivers only need the leaf key usable; the init key matters to the committer, who seals the Welcome.
                guard GroupState.isUsableX25519(kp.leafNode.encryptionKey),
                      committer != ownIndex || GroupState.isUsableX25519(kp.initKey) else {
                    throw GroupError(.invalidProposal, "KeyPackage has a low-order X25519 key")
                }
                let cred = kp.leafNode.credential
                guard cred.isBasic, cred.identity.count == 32 else { throw GroupError(.invalidProposal, "credential is not a 32-byte basic identity") }
                let duplicate = addCount > 8 ? !present.insert(cred.identity).inserted
                    : (addedIDs.contains(cred.identity) || newMembers.contains { $0.identity == cred.identity })
                guard !duplicate else { throw GroupError(.invalidProposal, "identity already in the group") }
                addedIDs.append(cred.identity)
                let m = GroupMember(identity: cred.identity, encryptionKey: kp.leafNode.encryptionKey,
                                    signatureKey: kp.leafNode.signatureKey, isAdmin: admin)
                newMembers.append(m)
                hashes.append(m.hash)
                added.append((newMembers.count - 1, kp))
            }
        }
        return AppliedRoster(members: newMembers, hashes: hashes, committerIndex: newCommitter,
                             added: added.map { (index: $0.0, keyPackage: $0.1) }, removedIdentities: removeSet)
    }

    /// Derives the next epoch from an applied roster, the signed commit and the commit secret.
    func nextEpoch(roster: AppliedRoster, tbsHash: [UInt8], signature: [UInt8], commitSecret: SecureBytes)
        -> (context: LegacyGroupContext, contextBytes: [UInt8], joinerSecret: SecureBytes, secrets: LegacyEpochSecrets, confirmed: [UInt8], tag: [UInt8]) {
        let confirmed = GroupState.confirmedHash(interim: interimTranscriptHash, tbsHash: tbsHash, signature: signature)
        let ctx = LegacyGroupContext(cipherSuite: cipherSuite, groupID: groupID, nostrGroupID: nostrGroupID, epoch: epoch + 1,
                               rosterHash: GroupState.rosterHash(roster.hashes), confirmedTranscriptHash: confirmed)
        let ctxBytes = ctx.tlsSerialized
        let joiner = LegacyEpochSecrets.joinerSecret(previousInitSecret: secrets.initSecret, commitSecret: commitSecret, groupContext: ctxBytes)
        let next = LegacyEpochSecrets(joinerSecret: joiner, groupContext: ctxBytes)
        return (ctx, ctxBytes, joiner, next, confirmed, next.confirmationTag(confirmed))
    }

    static let commitSecretLabel = "InviteKit CommitSecret"
}
