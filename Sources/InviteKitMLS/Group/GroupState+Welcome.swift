import InviteKitCrypto

extension GroupState {
    /// Joins from a Welcome with the KeyPackage it names (group.md §Processing a Welcome). Checks:
    /// the HPKE open, the roster hash, the joiner's own roster entry, the GroupInfo signature and the
    /// confirmation tag.
    public static func join(welcome: LegacyWelcome, bundle: KeyPackageBundle) throws -> GroupState {
        let kp = bundle.keyPackage
        guard welcome.cipherSuite == kp.cipherSuite else { throw GroupError(.invalidWelcome, "cipher suite mismatch") }
        guard welcome.keyPackageRef == bundle.reference else { throw GroupError(.unknownKeyPackage, "Welcome names another KeyPackage") }
        let joinerSecret: SecureBytes
        do {
            var js = try MLSCrypto.decryptWithLabel(suite: welcome.cipherSuite, privateKey: bundle.initPrivateKey, label: LegacyWelcome.label,
                                                    context: welcome.keyPackageRef, ciphertext: welcome.encryptedJoinerSecret)
            defer { zeroize(&js) }
            guard js.count == 32 else { throw GroupError(.invalidWelcome, "joiner secret length") }
            joinerSecret = SecureBytes(copying: js)
        } catch let e as GroupError {
            throw e
        } catch {
            throw GroupError(.invalidWelcome, "Welcome does not open")
        }
        let aead: HPKEAEAD
        do { aead = try welcome.cipherSuite.hpke().aead } catch { throw GroupError(.invalidWelcome, "cipher suite") }
        let (key, nonce) = LegacyEpochSecrets.welcomeKeyAndNonce(joinerSecret: joinerSecret, aead: aead)
        let content: [UInt8]
        do { content = try aead.open(welcome.encryptedGroupInfo, key: key, nonce: nonce, aad: []) } catch {
            throw GroupError(.invalidWelcome, "GroupInfo does not open")
        }
        var r = TLSReader(content)
        let info: LegacyGroupInfo
        let hashes: [[UInt8]]
        let tbsHash: [UInt8]
        do {
            (info, hashes, tbsHash) = try LegacyGroupInfo.parseHashing(&r)
            try r.finish()
        } catch {
            throw GroupError(.invalidWelcome, "malformed GroupInfo: \(error)")
        }
        let ctx = info.groupContext
        guard ctx.cipherSuite == kp.cipherSuite else { throw GroupError(.invalidWelcome, "cipher suite mismatch") }
        guard GroupState.rosterHash(hashes) == ctx.rosterHash else { throw GroupError(.invalidWelcome, "roster hash mismatch") }
        let identity = kp.leafNode.credential.identity
        guard let me = info.members.firstIndex(where: { $0.identity == identity }),
              info.members[me].encryptionKey == kp.leafNode.encryptionKey,
              info.members[me].signatureKey == kp.leafNode.signatureKey else {
            throw GroupError(.invalidWelcome, "joiner not in roster with its KeyPackage keys")
        }
        guard Int(info.signerIndex) < info.members.count else { throw GroupError(.invalidWelcome, "signer index") }
        guard MLSCrypto.verifyWithLabel(publicKey: info.members[Int(info.signerIndex)].signatureKey, label: LegacyGroupInfo.signLabel,
                                        content: tbsHash, signature: info.signature) else {
            throw GroupError(.forged, "GroupInfo signature")
        }
        let ctxBytes = ctx.tlsSerialized
        let secrets = LegacyEpochSecrets(joinerSecret: joinerSecret, groupContext: ctxBytes)
        guard ConstantTime.equals(secrets.confirmationTag(ctx.confirmedTranscriptHash), info.confirmationTag) else {
            throw GroupError(.invalidConfirmationTag, "Welcome confirmation tag")
        }
        return GroupState(cipherSuite: ctx.cipherSuite, groupID: ctx.groupID, nostrGroupID: ctx.nostrGroupID, epoch: ctx.epoch,
                          members: info.members, memberHashes: hashes, confirmedTranscriptHash: ctx.confirmedTranscriptHash,
                          interimTranscriptHash: interimHash(confirmed: ctx.confirmedTranscriptHash, tag: info.confirmationTag),
                          secrets: secrets, contextBytes: ctxBytes, ownIdentity: identity, encryptionKey: bundle.encryptionPrivateKey,
                          signatureKey: bundle.signaturePrivateKey, ownIndex: me)
    }
}
