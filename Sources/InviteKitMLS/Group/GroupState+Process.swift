import InviteKitCrypto

extension GroupState {
    /// Checks a signed group event against this epoch's roster and returns its sender.
    func authenticate(_ pt: GroupEventPlaintext, tbsHash: [UInt8]? = nil) throws -> GroupMember {
        guard pt.epoch == epoch else { throw GroupError(.wrongEpoch, "event for epoch \(pt.epoch), state at \(epoch)") }
        guard Int(pt.senderIndex) < members.count else { throw GroupError(.unknownSender, "sender index \(pt.senderIndex)") }
        let sender = members[Int(pt.senderIndex)]
        let tbs = tbsHash ?? pt.tbsHash(groupContext: contextBytes)
        guard MLSCrypto.verifyWithLabel(publicKey: sender.signatureKey, label: GroupEventPlaintext.signLabel, content: tbs,
                                        signature: pt.signature) else {
            throw GroupError(.forged, "signature does not verify")
        }
        return sender
    }

    /// Applies a commit made by another member (group.md §Processing a commit).
    public func processCommit(_ pt: GroupEventPlaintext) throws -> CommitResult {
        guard pt.contentType == .commit else { throw GroupError(.malformed, "not a commit") }
        guard pt.epoch == epoch else { throw GroupError(.wrongEpoch, "commit for epoch \(pt.epoch), state at \(epoch)") }
        guard Int(pt.senderIndex) != ownIndex else { throw GroupError(.invalidProposal, "own commit must be merged, not processed") }
        let tbs = pt.tbsHash(groupContext: contextBytes)
        _ = try authenticate(pt, tbsHash: tbs)
        // Proposals first; of the sealed secrets only this member's is materialized.
        var reader = TLSReader(pt.body)
        let proposals: [LegacyProposal]
        do { proposals = try reader.readVector { try LegacyProposal(from: &$0) } } catch { throw GroupError(.malformed, "commit body: \(error)") }
        let roster = try apply(proposals, committer: Int(pt.senderIndex))
        // Removed (possibly re-added in the same commit as a new device, which joins by Welcome).
        guard !roster.removedIdentities.contains(ownIdentity),
              let myNewIndex = roster.members.firstIndex(where: { $0.identity == ownIdentity }) else { return .removed }
        let mine: LegacyCommit.SealedSecret
        do {
            guard let found = try LegacyCommit.findSecret(in: &reader, recipientIndex: UInt32(myNewIndex)) else {
                throw GroupError(.malformed, "no commit secret for this member")
            }
            mine = found
        } catch let e as GroupError {
            throw e
        } catch {
            throw GroupError(.malformed, "commit secrets: \(error)")
        }
        let commitSecret: SecureBytes
        do {
            var plain = try MLSCrypto.decryptWithLabel(suite: cipherSuite, privateKey: encryptionKey, label: GroupState.commitSecretLabel,
                                                       context: contextBytes, ciphertext: mine.sealed)
            defer { zeroize(&plain) }
            guard plain.count == 32 else { throw GroupError(.malformed, "commit secret length") }
            commitSecret = SecureBytes(copying: plain)
        } catch let e as GroupError {
            throw e
        } catch {
            throw GroupError(.forged, "commit secret does not open")
        }
        let next = nextEpoch(roster: roster, tbsHash: tbs, signature: pt.signature, commitSecret: commitSecret)
        guard ConstantTime.equals(next.tag, pt.confirmationTag) else {
            throw GroupError(.invalidConfirmationTag, "confirmation tag mismatch")
        }
        var s = self
        s.epoch = epoch + 1
        s.members = roster.members
        s.memberHashes = roster.hashes
        s.confirmedTranscriptHash = next.confirmed
        s.interimTranscriptHash = GroupState.interimHash(confirmed: next.confirmed, tag: next.tag)
        s.secrets = next.secrets
        s.contextBytes = next.contextBytes
        s.ownIndex = myNewIndex
        return .applied(s)
    }
}
