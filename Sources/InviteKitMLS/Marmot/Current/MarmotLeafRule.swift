import Foundation
import InviteKitCrypto

/// What every leaf of a Marmot group must be, by the group's profile (PROTOCOL §5.12.2). The
/// engine asks it for each leaf it accepts: a KeyPackage's leaf for an Add, an Update's leaf, a
/// commit's path leaf, every leaf of a Welcome's tree, and the creator's leaf.
package enum MarmotLeafRule {
    /// Checks `leaf` for a group of `profile` in `suite`. `nil` profile: no Marmot rule.
    /// - current: the leaf advertises `app_data_dictionary` (`0x0006`) in its capabilities, holds
    ///   exactly one dictionary whose `app_components` list names `0x8009`, one valid proof by its
    ///   credential's account over its signature key, and no legacy `0xf2f1` extension (MDK
    ///   v0.9.14 `account_identity_proof.rs:330-360`).
    /// - MIP: the leaf carries neither a dictionary nor a proof (a current-profile leaf).
    package static func check(_ leaf: LeafNode, profile: MarmotWireProfile?, suite: CipherSuite) throws {
        guard let profile else { return }
        switch profile {
        case .mip:
            guard MarmotWireProfile.of(leaf: leaf) == .mip else {
                throw MLSError(.profileMismatch, "a current-profile leaf in a MIP-profile group")
            }
        case .current:
            try proof(of: leaf).verify(identity: leaf.credential.identity, signatureKey: leaf.signatureKey, cipherSuite: suite)
        }
    }

    /// The leaf's proof, with every structural rule checked but the signature.
    package static func proof(of leaf: LeafNode) throws -> AccountIdentityProof {
        if leaf.extensions.contains(where: { $0.extensionType == AccountIdentityProof.legacyExtensionType }) {
            throw MLSError(.invalidIdentityProof, "leaf carries the legacy proof extension 0xf2f1")
        }
        guard leaf.capabilities.extensions.contains(AppDataDictionary.extensionType) else {
            throw MLSError(.profileMismatch, "leaf does not support app_data_dictionary (a MIP-profile leaf)")
        }
        guard let dictionary = try AppDataDictionary(extensions: leaf.extensions) else {
            throw MLSError(.invalidIdentityProof, "leaf has no app_data_dictionary, so no account identity proof")
        }
        guard let supported = dictionary[ComponentID.appComponents],
              try ComponentsList(decoding: supported).contains(ComponentID.accountIdentityProof) else {
            throw MLSError(.invalidIdentityProof, "leaf does not advertise component 0x8009")
        }
        guard let bytes = dictionary[ComponentID.accountIdentityProof] else {
            throw MLSError(.invalidIdentityProof, "leaf has no account identity proof")
        }
        return try AccountIdentityProof(decoding: bytes)
    }

    /// ``check(_:profile:suite:)`` of a replacement leaf (an Update or a path leaf): a leaf whose
    /// proof and signature key equal those of the leaf it replaces was checked when that one was,
    /// so only the cheap structural part runs again.
    package static func checkReplacement(_ leaf: LeafNode, replacing old: LeafNode?, profile: MarmotWireProfile?, suite: CipherSuite) throws {
        if profile != nil, let old, old.credential != leaf.credential {
            throw MLSError(.credentialMismatch, "a leaf may not change its account: remove and add instead")
        }
        guard profile == .current, let old, old.signatureKey == leaf.signatureKey, old.credential == leaf.credential,
              let previous = try? proof(of: old), try proof(of: leaf) == previous else {
            try check(leaf, profile: profile, suite: suite)
            return
        }
    }

    /// Each leaf at `indexes` of `tree` lists every component id the group requires in its own
    /// `app_components` entry (current profile; `app-components/README.md`, "Negotiation": a
    /// member that does not support every required component must not join).
    package static func checkSupport(_ indexes: [UInt32], in tree: RatchetTree, groupContextExtensions extensions: [MLSExtension],
                                     profile: MarmotWireProfile?) throws {
        guard profile == .current, let group = try AppDataDictionary(extensions: extensions),
              let raw = group[ComponentID.appComponents] else { return }
        let required = try ComponentsList(decoding: raw).ids
        for i in indexes {
            guard let leaf = tree.leaf(i), let d = try AppDataDictionary(extensions: leaf.extensions),
                  let supportedRaw = d[ComponentID.appComponents] else {
                throw MLSError(.invalidIdentityProof, "leaf \(i) lists no supported components")
            }
            let supported = try ComponentsList(decoding: supportedRaw)
            if let missing = required.first(where: { !supported.contains($0) }) {
                throw MLSError(.invalidProposal, "leaf \(i) does not support required component \(ComponentID.hex(missing))")
            }
        }
    }

    /// Every leaf of a received tree, spread over the cores as the leaf signatures are: one
    /// BIP-340 verification per leaf. Reports the first failing leaf in leaf order.
    package static func checkAll(_ leaves: [(UInt32, LeafNode)], profile: MarmotWireProfile?, suite: CipherSuite) throws {
        guard let profile else { return }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard profile == .current, leaves.count >= 64, cores > 1 else {
            for (i, leaf) in leaves {
                do { try check(leaf, profile: profile, suite: suite) } catch let e as MLSError {
                    throw MLSError(e.code, "leaf \(i): \(e.detail)")
                }
            }
            return
        }
        var failures = [MLSError?](repeating: nil, count: leaves.count)
        failures.withUnsafeMutableBufferPointer { buffer in
            let results = UnsafeSendableBuffer(buffer)
            let chunks = cores * 4
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                for k in (c * leaves.count / chunks)..<((c + 1) * leaves.count / chunks) {
                    do { try check(leaves[k].1, profile: profile, suite: suite) } catch {
                        results.buffer[k] = (error as? MLSError) ?? MLSError(.invalidIdentityProof, "\(error)")
                    }
                }
            }
        }
        if let k = failures.firstIndex(where: { $0 != nil }), let e = failures[k] {
            throw MLSError(e.code, "leaf \(leaves[k].0): \(e.detail)")
        }
    }
}
