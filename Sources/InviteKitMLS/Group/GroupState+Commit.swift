import Foundation
import InviteKitCrypto

extension GroupState {
    /// `EncryptWithLabel(encryption_key, "InviteKit CommitSecret", GroupContext[n], commit_secret)` for
    /// each recipient. Ephemeral keys are drawn in order from `rng` (replayable); the seals, one X25519
    /// DH and a few HMACs each, run on all cores.
    func sealCommitSecret(_ secret: SecureBytes, to recipients: [(index: UInt32, key: [UInt8])], rng: RandomSource) throws -> [LegacyCommit.SealedSecret] {
        let hpke = try cipherSuite.hpke()
        let ksContext = hpke.keyScheduleContext(info: MLSCrypto.encryptContext(label: GroupState.commitSecretLabel, context: contextBytes))
        // Same draws as X25519.PrivateKey(using: rng) per recipient; the base-point multiplications
        // then run in the workers.
        let seeds = recipients.map { _ in rng.secureBytes(32) }
        let results = UnsafeMutableBufferPointer<Result<LegacyCommit.SealedSecret, Error>?>.allocate(capacity: recipients.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        let chunks = recipients.count < 64 ? 1 : max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let per = (recipients.count + chunks - 1) / max(chunks, 1)
        let out = UnsafeSendableBuffer(results)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let lo = c * per, hi = min(recipients.count, lo + per)
            guard lo < hi else { return }
            for i in lo..<hi {
                out.buffer[i] = Result {
                    let ephemeral = try X25519.PrivateKey(rawRepresentation: seeds[i])
                    let (enc, ct) = try hpke.sealBase(publicKey: recipients[i].key, keyScheduleContext: ksContext, ephemeral: ephemeral,
                                                      aad: [], plaintext: secret)
                    return LegacyCommit.SealedSecret(recipientIndex: recipients[i].index, sealed: HPKECiphertext(kemOutput: enc, ciphertext: ct))
                }
            }
        }
        return try results.map { try $0!.get() }
    }

    /// Builds a commit for this epoch (group.md §Commit). Only admins may commit anything but a
    /// pure self-update. The commit secret is sealed to every remaining member except the committer
    /// and the joiners; joiners get a ``Welcome`` each.
    public func createCommit(_ actions: [CommitAction], rng: RandomSource = SystemRandom()) throws -> CommitBundle {
        var proposals: [LegacyProposal] = []
        var newEnc: X25519.PrivateKey?
        var newSig: Ed25519.PrivateKey?
        for a in actions {
            switch a {
            case .add(let kp, let admin): proposals.append(.add(kp, isAdmin: admin))
            case .remove(let id): proposals.append(.remove(identity: id))
            case .selfRemove(let id): proposals.append(.selfRemove(identity: id))
            case .selfUpdate:
                let e = X25519.PrivateKey(using: rng), s = Ed25519.PrivateKey(using: rng)
                newEnc = e; newSig = s
                proposals.append(.update(encryptionKey: e.publicKey, signatureKey: s.publicKey))
            }
        }
        let roster = try apply(proposals, committer: ownIndex)
        let commitSecret = rng.secureBytes(32)
        let addedIndices = Set(roster.added.map(\.index))
        let recipients = roster.members.indices.filter { $0 != roster.committerIndex && !addedIndices.contains($0) }
        let sealed = try sealCommitSecret(commitSecret, to: recipients.map { (UInt32($0), roster.members[$0].encryptionKey) }, rng: rng)
        let body = LegacyCommit(proposals: proposals, secrets: sealed).tlsSerialized
        var pt = GroupEventPlaintext(contentType: .commit, epoch: epoch, senderIndex: UInt32(ownIndex), body: body)
        let tbs = pt.tbsHash(groupContext: contextBytes)
        pt.signature = MLSCrypto.signWithLabel(signatureKey, label: GroupEventPlaintext.signLabel, content: tbs)
        let next = nextEpoch(roster: roster, tbsHash: tbs, signature: pt.signature, commitSecret: commitSecret)
        pt.confirmationTag = next.tag

        var newState = self
        newState.epoch = epoch + 1
        newState.members = roster.members
        newState.memberHashes = roster.hashes
        newState.confirmedTranscriptHash = next.confirmed
        newState.interimTranscriptHash = GroupState.interimHash(confirmed: next.confirmed, tag: next.tag)
        newState.secrets = next.secrets
        newState.contextBytes = next.contextBytes
        newState.ownIndex = roster.committerIndex
        if let e = newEnc, let s = newSig { newState.encryptionKey = e; newState.signatureKey = s }

        var welcomes: [LegacyWelcome] = []
        if !roster.added.isEmpty {
            var info = LegacyGroupInfo(groupContext: next.context, members: roster.members, confirmationTag: next.tag,
                                 signerIndex: UInt32(roster.committerIndex), signature: [])
            var w = TLSWriter(capacity: roster.members.count * 110 + 256)
            info.encodeTBS(to: &w)
            info.signature = MLSCrypto.signWithLabel(newState.signatureKey, label: LegacyGroupInfo.signLabel, content: SHA256.hash(w.bytes))
            w.writeOpaque(info.signature)
            // One AEAD of the GroupInfo for all joiners; each joiner gets the joiner secret by HPKE.
            let aead = try cipherSuite.hpke().aead
            let (key, nonce) = LegacyEpochSecrets.welcomeKeyAndNonce(joinerSecret: next.joinerSecret, aead: aead)
            let encryptedInfo = try aead.seal(w.bytes, key: key, nonce: nonce, aad: [])
            for (_, kp) in roster.added {
                let ref = kp.reference
                let ct = try MLSCrypto.encryptWithLabel(suite: cipherSuite, publicKey: kp.initKey, label: LegacyWelcome.label,
                                                        context: ref, plaintext: next.joinerSecret, rng: rng)
                welcomes.append(LegacyWelcome(cipherSuite: cipherSuite, keyPackageRef: ref, encryptedJoinerSecret: ct, encryptedGroupInfo: encryptedInfo))
            }
        }
        return CommitBundle(plaintext: pt, newState: newState, baseEpoch: epoch, removedIdentities: roster.removedIdentities,
                            baseContext: contextBytes, welcomes: welcomes)
    }
}
