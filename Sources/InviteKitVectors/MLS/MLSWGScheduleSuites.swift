import Foundation
import InviteKitCrypto
import InviteKitMLS

/// The mlswg interop vectors (`vectors/external/mls/`) for the key schedule, secret tree, message
/// protection and transcript hashes, for cipher suites 1 and 3. Other suites are skipped: their
/// curves and hashes are outside the Marmot profile.
///
/// A case is one epoch of `key-schedule.json` and one entry of each other file.
package enum MLSWGScheduleSuites {
    /// One suite's outcome: the shared result type.
    package typealias SuiteResult = VectorSuiteResult

    /// Files and the suite names they report under.
    static let files: [(file: String, suite: String)] = [
        ("key-schedule.json", "mlswg-key-schedule"), ("secret-tree.json", "mlswg-secret-tree"),
        ("message-protection.json", "mlswg-message-protection"), ("transcript-hashes.json", "mlswg-transcript-hashes"),
    ]

    /// Runs every suite whose file exists under `directory/external/mls/`.
    package static func run(directory: URL) -> [SuiteResult] {
        let dir = directory.appendingPathComponent("external/mls")
        return files.compactMap { f in
            guard let list = MLSVectorSuites.loadJSON(dir.appendingPathComponent(f.file)) as? [[String: Any]] else { return nil }
            return run(suite: f.suite, entries: list)
        }
    }

    /// Runs one suite over its parsed entries.
    static func run(suite: String, entries: [[String: Any]]) -> SuiteResult {
        var result = SuiteResult(suite: suite)
        for (i, e) in entries.enumerated() {
            let raw = (e["cipher_suite"] as? NSNumber)?.uint16Value ?? 0
            let cs = CipherSuite(rawValue: raw)
            guard cs.isSupported else {
                result.skip(skipReason(raw))
                continue
            }
            let name = "case \(i) (suite \(raw))"
            switch suite {
            case "mlswg-key-schedule":
                for (j, failure) in keyScheduleEpochs(e, suite: cs).enumerated() { result.record("\(name) epoch \(j)", failure) }
            case "mlswg-secret-tree": result.record(name, secretTree(e, suite: cs))
            case "mlswg-message-protection": result.record(name, messageProtection(e, suite: cs))
            default: result.record(name, transcriptHashes(e, suite: cs))
            }
        }
        return result
    }

    static func skipReason(_ suite: UInt16) -> String { "cipher suite \(suite) is outside the Marmot profile" }

    static func hex(_ any: Any?) -> [UInt8] { MLSVectorSuites.hex(any) ?? [] }

    /// `GroupContext` with empty extensions (RFC 9420 §8.1), as the vectors build it.
    static func groupContext(suite: CipherSuite, groupID: [UInt8], epoch: UInt64, treeHash: [UInt8], confirmedTranscriptHash: [UInt8]) -> [UInt8] {
        var w = TLSWriter()
        ProtocolVersion.mls10.encode(to: &w)
        suite.encode(to: &w)
        w.writeOpaque(groupID)
        w.writeUInt64(epoch)
        w.writeOpaque(treeHash)
        w.writeOpaque(confirmedTranscriptHash)
        w.writeOpaque([UInt8]())
        return w.bytes
    }

    /// One failure description (or nil) per epoch.
    static func keyScheduleEpochs(_ e: [String: Any], suite: CipherSuite) -> [String?] {
        guard let epochs = e["epochs"] as? [[String: Any]], !epochs.isEmpty else { return ["no epochs"] }
        let groupID = hex(e["group_id"])
        var initSecret = SecureBytes(copying: hex(e["initial_init_secret"]))
        var out: [String?] = []
        for (n, ep) in epochs.enumerated() {
            let gc = groupContext(suite: suite, groupID: groupID, epoch: UInt64(n), treeHash: hex(ep["tree_hash"]),
                                  confirmedTranscriptHash: hex(ep["confirmed_transcript_hash"]))
            guard gc == hex(ep["group_context"]) else { out.append("group_context"); break }
            do {
                let s = try KeySchedule.nextEpoch(initSecret: initSecret, commitSecret: hex(ep["commit_secret"]),
                                                  pskSecret: SecureBytes(copying: hex(ep["psk_secret"])), groupContext: gc, suite: suite)
                let checks: [(String, SecureBytes)] = [
                    ("joiner_secret", s.joinerSecret), ("welcome_secret", s.welcomeSecret), ("init_secret", s.initSecret),
                    ("sender_data_secret", s.senderDataSecret), ("encryption_secret", s.encryptionSecret),
                    ("exporter_secret", s.exporterSecret), ("epoch_authenticator", s.epochAuthenticator),
                    ("external_secret", s.externalSecret), ("confirmation_key", s.confirmationKey),
                    ("membership_key", s.membershipKey), ("resumption_psk", s.resumptionPSK),
                ]
                var bad = checks.filter { $0.1.exportBytes() != hex(ep[$0.0]) }.map(\.0)
                if try s.externalKeyPair().publicKey != hex(ep["external_pub"]) { bad.append("external_pub") }
                if let x = ep["exporter"] as? [String: Any], let label = x["label"] as? String,
                   let length = (x["length"] as? NSNumber)?.intValue {
                    if s.export(label: label, context: hex(x["context"]), length: length).exportBytes() != hex(x["secret"]) { bad.append("exporter") }
                } else { bad.append("exporter (missing)") }
                out.append(bad.isEmpty ? nil : "mismatch: " + bad.joined(separator: ", "))
                initSecret = s.initSecret
            } catch {
                out.append("threw \(error)")
                break
            }
        }
        return out
    }

    static func secretTree(_ e: [String: Any], suite: CipherSuite) -> String? {
        do {
            guard let sd = e["sender_data"] as? [String: Any], let leaves = e["leaves"] as? [[[String: Any]]], !leaves.isEmpty else {
                return "malformed entry"
            }
            let keys = try SenderData.keyAndNonce(senderDataSecret: SecureBytes(copying: hex(sd["sender_data_secret"])),
                                                  ciphertext: hex(sd["ciphertext"]), suite: suite)
            guard keys.key.exportBytes() == hex(sd["key"]), keys.nonce.exportBytes() == hex(sd["nonce"]) else { return "sender data key/nonce" }
            var tree = try SecretTree(encryptionSecret: SecureBytes(copying: hex(e["encryption_secret"])),
                                      leafCount: UInt32(leaves.count), suite: suite)
            for (i, gens) in leaves.enumerated() {
                for g in gens {
                    guard let gen = (g["generation"] as? NSNumber)?.uint32Value else { return "leaf \(i): no generation" }
                    let h = try tree.key(leaf: UInt32(i), type: .handshake, generation: gen)
                    let a = try tree.key(leaf: UInt32(i), type: .application, generation: gen)
                    guard h.key.exportBytes() == hex(g["handshake_key"]), h.nonce.exportBytes() == hex(g["handshake_nonce"]),
                          a.key.exportBytes() == hex(g["application_key"]), a.nonce.exportBytes() == hex(g["application_nonce"]) else {
                        return "leaf \(i) generation \(gen)"
                    }
                    // Persisting and restoring between steps must not change what follows.
                    tree = try SecretTree(tlsSerialized: tree.tlsSerialized)
                }
            }
            return nil
        } catch {
            return "threw \(error)"
        }
    }

    static func transcriptHashes(_ e: [String: Any], suite: CipherSuite) -> String? {
        do {
            let bytes = hex(e["authenticated_content"])
            let ac = try AuthenticatedContent(tlsSerialized: bytes)
            guard ac.tlsSerialized == bytes else { return "AuthenticatedContent does not re-serialize byte-exact" }
            guard ac.content.contentType == .commit, let tag = ac.auth.confirmationTag else { return "not a commit" }
            let confirmed = try TranscriptHashes.confirmed(interimBefore: hex(e["interim_transcript_hash_before"]), authenticatedContent: ac)
            guard confirmed == hex(e["confirmed_transcript_hash_after"]) else { return "confirmed_transcript_hash_after" }
            let expectedTag = EpochSecrets.confirmationTag(confirmationKey: hex(e["confirmation_key"]), confirmedTranscriptHash: confirmed)
            guard ConstantTime.equals(expectedTag, tag) else { return "confirmation_tag" }
            guard TranscriptHashes.interim(confirmed: confirmed, confirmationTag: tag) == hex(e["interim_transcript_hash_after"]) else {
                return "interim_transcript_hash_after"
            }
            return nil
        } catch {
            return "threw \(error)"
        }
    }
}
