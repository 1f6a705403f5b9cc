import InviteKitMLS
import Foundation
import InviteKitCrypto
import InviteKitNostr

extension MLSWGEngineSuites {
    static func isMarmotSuite(_ e: [String: Any]) -> CipherSuite? {
        guard let raw = (e["cipher_suite"] as? NSNumber)?.uint16Value else { return nil }
        let suite = CipherSuite(rawValue: raw)
        return suite.isSupported ? suite : nil
    }

    /// welcome.json (RFC 9420 §12.4.3.1): decrypt the GroupSecrets with `init_priv`, the
    /// GroupInfo with the welcome key and nonce, verify its signature with `signer_pub`, and its
    /// confirmation tag from the joiner secret.
    static func welcome(_ entries: [[String: Any]]) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "mlswg-welcome")
        for (i, e) in entries.enumerated() {
            guard let suite = isMarmotSuite(e) else { r.skip("cipher suite outside the Marmot profile (1 and 3)"); continue }
            r.check("\(i) suite \(suite.rawValue)") {
                guard let initPriv = hex(e["init_priv"]), let signer = hex(e["signer_pub"]), let kpBytes = hex(e["key_package"]),
                      let welcomeBytes = hex(e["welcome"]) else { return "missing field" }
                let kp = try MLSMessage(tlsSerialized: kpBytes).keyPackage
                guard case .welcome(let welcome) = try MLSMessage(tlsSerialized: welcomeBytes).body else { return "not a Welcome" }
                let key = try X25519.PrivateKey(rawRepresentation: initPriv)
                guard let entry = welcome.secrets.first(where: { $0.newMember == kp.reference }) else { return "no entry for the KeyPackage" }
                let plain = try MLSCrypto.decryptWithLabel(suite: suite, privateKey: key, label: "Welcome", context: welcome.encryptedGroupInfo,
                                                           ciphertext: entry.encryptedGroupSecrets)
                let secrets = try GroupSecrets(tlsSerialized: plain)
                let info = try MLSGroupState.openGroupInfo(welcome: welcome, joinerSecret: secrets.joinerSecret)
                try info.verifySignature(publicKey: signer)
                let epoch = try KeySchedule.fromJoinerSecret(secrets.joinerSecret, groupContext: info.groupContext.tlsSerialized, suite: suite)
                try MLSGroupState.verifyConfirmationTag(info.confirmationTag, key: epoch.confirmationKey,
                                                        confirmed: info.groupContext.confirmedTranscriptHash)
                return nil
            }
        }
        return r
    }

    /// A passive client joins from the Welcome and follows every commit (RFC 9420 §12.4.2),
    /// matching each epoch authenticator.
    static func passiveClient(_ entries: [[String: Any]], suite name: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: name)
        for (i, e) in entries.enumerated() {
            guard let suite = isMarmotSuite(e) else { r.skip("cipher suite outside the Marmot profile (1 and 3)"); continue }
            var skipReason: String?
            r.check("\(i) suite \(suite.rawValue)") {
                do {
                    return try passiveClientCase(e)
                } catch let error as MLSError where error.code == .unsupportedFeature {
                    skipReason = error.detail
                    return nil
                }
            }
            if let skipReason {
                r.passed -= 1
                r.skip(skipReason)
            }
        }
        return r
    }

    /// One passive-client case; nil when every epoch authenticator matches.
    static func passiveClientCase(_ e: [String: Any]) throws -> String? {
        guard let kpBytes = hex(e["key_package"]), let sig = hex(e["signature_priv"]), let enc = hex(e["encryption_priv"]),
              let ini = hex(e["init_priv"]), let welcomeBytes = hex(e["welcome"]),
              let initial = hex(e["initial_epoch_authenticator"]), let epochs = e["epochs"] as? [[String: Any]] else { return "missing field" }
        let kp = try MLSMessage(tlsSerialized: kpBytes).keyPackage
        let bundle = KeyPackageBundle(keyPackage: kp, initPrivateKey: try X25519.PrivateKey(rawRepresentation: ini),
                                      encryptionPrivateKey: try X25519.PrivateKey(rawRepresentation: enc),
                                      signaturePrivateKey: try Ed25519.PrivateKey(rawRepresentation: sig))
        guard bundle.initPrivateKey.publicKey == kp.initKey, bundle.encryptionPrivateKey.publicKey == kp.leafNode.encryptionKey,
              bundle.signaturePrivateKey.publicKey == kp.leafNode.signatureKey else { return "private keys do not match the KeyPackage" }
        guard case .welcome(let welcome) = try MLSMessage(tlsSerialized: welcomeBytes).body else { return "not a Welcome" }
        var tree: RatchetTree?
        if let t = hex(e["ratchet_tree"]) { tree = try RatchetTree(tlsSerialized: t) }
        var psks: [[UInt8]: [UInt8]] = [:]
        for p in (e["external_psks"] as? [[String: Any]]) ?? [] {
            guard let id = hex(p["psk_id"]), let psk = hex(p["psk"]) else { return "bad external_psks entry" }
            psks[id] = psk
        }
        var state = try MLSGroupState.join(welcome: welcome, keyPackage: bundle, ratchetTree: tree,
                                             pskSecret: { try ConformancePSK.pskSecret($0, external: psks, suite: $1) })
        guard state.epochAuthenticator == initial else { return "initial epoch authenticator differs" }
        for (n, epoch) in epochs.enumerated() {
            guard let commit = hex(epoch["commit"]), let want = hex(epoch["epoch_authenticator"]) else { return "epoch \(n): missing field" }
            for p in (epoch["proposals"] as? [String]) ?? [] {
                guard let bytes = Hex.decode(p) else { return "epoch \(n): bad proposal hex" }
                _ = try state.process(bytes)
            }
            _ = try state.process(commit)
            guard state.epochAuthenticator == want else { return "epoch \(n): epoch authenticator differs" }
        }
        return nil
    }
}
