import InviteKitMLS
import Foundation
import InviteKitCrypto

/// InviteKit's own group-model vectors (`vectors/mls/group-vectors.json`; schema in
/// PROTOCOL.md §5.8). Every case is regenerated from fixed seeds by
/// ``generate()``, and ``verify(json:)`` checks a file against this implementation.
public enum GroupVectors {
    /// Returns (passed, failed) over every check in the file.
    public static func verify(json: Data) -> (passed: Int, failed: Int) {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else { return (0, 1) }
        var passed = 0, failed = 0
        func check(_ ok: Bool) { if ok { passed += 1 } else { failed += 1 } }
        for c in root["key_schedule"] as? [[String: Any]] ?? [] { check(checkKeySchedule(c)) }
        for c in root["messages"] as? [[String: Any]] ?? [] { check(checkMessage(c)) }
        for c in root["welcomes"] as? [[String: Any]] ?? [] { check(checkWelcome(c)) }
        for c in root["commits"] as? [[String: Any]] ?? [] { check(checkCommit(c)) }
        for c in root["simulations"] as? [[String: Any]] ?? [] { check(checkSimulation(c)) }
        return (passed, failed)
    }

    static func h(_ c: [String: Any], _ k: String) -> [UInt8]? { (c[k] as? String).flatMap { Hex.decode($0) } }

    // MARK: key schedule

    static func keySchedule(initSecret: [UInt8], commitSecret: [UInt8], groupContext: [UInt8]) -> [String: String] {
        let joiner = LegacyEpochSecrets.joinerSecret(previousInitSecret: SecureBytes(copying: initSecret), commitSecret: SecureBytes(copying: commitSecret),
                                               groupContext: groupContext)
        let s = LegacyEpochSecrets(joinerSecret: joiner, groupContext: groupContext)
        let ctx = try? LegacyGroupContext(tlsSerialized: groupContext)
        return [
            "joiner_secret": Hex.encode(joiner.exportBytes()),
            "epoch_secret": Hex.encode(s.epochSecret.exportBytes()),
            "init_secret": Hex.encode(s.initSecret.exportBytes()),
            "exporter_secret": Hex.encode(s.exporterSecret.exportBytes()),
            "confirmation_key": Hex.encode(s.confirmationKey.exportBytes()),
            "message_key": Hex.encode(s.messageKey.exportBytes()),
            "confirmation_tag": Hex.encode(s.confirmationTag(ctx?.confirmedTranscriptHash ?? [])),
        ]
    }

    static func checkKeySchedule(_ c: [String: Any]) -> Bool {
        guard let i = h(c, "init_secret_prev"), let cs = h(c, "commit_secret"), let gc = h(c, "group_context"),
              let want = c["out"] as? [String: String] else { return false }
        return keySchedule(initSecret: i, commitSecret: cs, groupContext: gc) == want
    }

    // MARK: messages

    static func checkMessage(_ c: [String: Any]) -> Bool {
        guard let key = h(c, "message_key"), let sealed = h(c, "sealed"), let want = h(c, "plaintext"),
              let gc = h(c, "group_context"), let sigKey = h(c, "sender_signature_key"), sealed.count > 28 else { return false }
        guard let plain = try? ChaChaPoly.open(sealed[12...], key: key, nonce: Array(sealed[0..<12]), aad: [UInt8]()), plain == want,
              let pt = try? GroupEventPlaintext(tlsSerialized: plain) else { return false }
        guard MLSCrypto.verifyWithLabel(publicKey: sigKey, label: GroupEventPlaintext.signLabel, content: pt.tbsHash(groupContext: gc),
                                        signature: pt.signature) else { return false }
        return h(c, "body") == pt.body && (c["epoch"] as? NSNumber)?.uint64Value == pt.epoch
    }

    // MARK: welcomes

    static func checkWelcome(_ c: [String: Any]) -> Bool {
        guard let b = h(c, "joiner_bundle"), let wb = h(c, "welcome"),
              let bundle = try? KeyPackageBundle(privateSerialization: SecureBytes(copying: b)),
              let welcome = try? LegacyWelcome(tlsSerialized: wb),
              let state = try? GroupState.join(welcome: welcome, bundle: bundle) else { return false }
        return Hex.encode(state.epochFingerprint) == c["epoch_fingerprint"] as? String
            && (c["epoch"] as? NSNumber)?.uint64Value == state.epoch
            && (c["members"] as? NSNumber)?.intValue == state.members.count
    }

    // MARK: commits

    /// A receiver state is rebuilt from a Welcome, then the commit is applied.
    static func checkCommit(_ c: [String: Any]) -> Bool {
        guard let b = h(c, "receiver_bundle"), let wb = h(c, "receiver_welcome"), let cb = h(c, "commit_plaintext"),
              let bundle = try? KeyPackageBundle(privateSerialization: SecureBytes(copying: b)),
              let welcome = try? LegacyWelcome(tlsSerialized: wb),
              let state = try? GroupState.join(welcome: welcome, bundle: bundle),
              let pt = try? GroupEventPlaintext(tlsSerialized: cb) else { return false }
        let expected = c["expect"] as? String ?? ""
        do {
            switch try state.processCommit(pt) {
            case .applied(let next): return expected == "applied" && Hex.encode(next.epochFingerprint) == c["epoch_fingerprint"] as? String
            case .removed: return expected == "removed"
            }
        } catch let e as GroupError {
            return expected == e.code.rawValue
        } catch {
            return false
        }
    }

    // MARK: simulations

    static func checkSimulation(_ c: [String: Any]) -> Bool {
        guard let m = (c["members"] as? NSNumber)?.intValue, let r = (c["removals"] as? NSNumber)?.intValue,
              let seed = (c["seed"] as? NSNumber)?.uint64Value, let want = c["epochs"] as? [[String: Any]],
              let facts = try? GroupSimulation.run(members: m, removals: r, seed: seed) else { return false }
        return simulationJSON(facts) as NSArray == want as NSArray
    }

    static func simulationJSON(_ facts: [GroupSimulation.EpochFact]) -> [[String: Any]] {
        facts.map {
            ["epoch": NSNumber(value: $0.epoch), "action": $0.action, "members": $0.members, "commit_bytes": $0.commitBytes,
             "welcomes": $0.welcomes, "converged": $0.converged, "fingerprint": $0.fingerprint,
             "message_readers": $0.messageReaders, "removed_readers": $0.removedReaders]
        }
    }

    // MARK: generation

    /// Builds the whole vector file from fixed seeds.
    public static func generate() throws -> Data {
        var root: [String: Any] = [
            "description": "InviteKit simplified group model vectors; schema in PROTOCOL.md §5.8. All hex is lowercase.",
            "version": 1,
        ]
        // Key schedule: three contexts.
        var ks: [[String: Any]] = []
        for seed in UInt64(1)...3 {
            let rng = SeededRandom(seed: 0x6b73_0000 + seed)
            let ctx = LegacyGroupContext(cipherSuite: .x25519Aes128GcmSha256Ed25519, groupID: rng.bytes(32), nostrGroupID: rng.bytes(32), epoch: seed * 7,
                                   rosterHash: rng.bytes(32), confirmedTranscriptHash: seed == 1 ? [] : rng.bytes(32)).tlsSerialized
            let i = rng.bytes(32), cs = seed == 1 ? [UInt8](repeating: 0, count: 32) : rng.bytes(32)
            ks.append(["init_secret_prev": Hex.encode(i), "commit_secret": Hex.encode(cs), "group_context": Hex.encode(ctx),
                       "out": keySchedule(initSecret: i, commitSecret: cs, groupContext: ctx)])
        }
        root["key_schedule"] = ks

        // A four-member group: admin + bob (admin) + carol + erin; dave joins later.
        let rng = SeededRandom(seed: 0x4756_0001)
        func bundle() throws -> KeyPackageBundle {
            try KeyPackageBundle.create(identity: rng.bytes(32), lifetime: Lifetime(notBefore: 0, notAfter: .max), lastResort: false, rng: rng)
        }
        var admin = GroupSession(state: try GroupState.create(identity: rng.bytes(32), rng: rng))
        let bob = try bundle(), carol = try bundle(), dave = try bundle(), erin = try bundle()
        let (c1, s1) = try admin.createCommit([.add(bob.keyPackage, isAdmin: true), .add(carol.keyPackage), .add(erin.keyPackage)], rng: rng)
        let w1 = try admin.confirmPublished(c1, sealed: s1, createdAt: 1, eventID: SHA256.hash(s1))
        let carolWelcome = w1.first { $0.keyPackageRef == carol.reference }!
        let carolState = try GroupState.join(welcome: carolWelcome, bundle: carol)
        root["welcomes"] = [[
            "joiner_bundle": Hex.encode(carol.privateSerialization().exportBytes()), "welcome": Hex.encode(carolWelcome.tlsSerialized),
            "epoch": NSNumber(value: carolState.epoch), "members": carolState.members.count,
            "epoch_fingerprint": Hex.encode(carolState.epochFingerprint),
        ] as [String: Any]]

        // Messages: one from the admin at epoch 1.
        let body = Array("{\"kind\":9}".utf8)
        let pt = admin.state.sign(contentType: .application, body: body)
        let sealed = try admin.state.encrypt(pt, rng: rng)
        root["messages"] = [[
            "message_key": Hex.encode(admin.state.secrets.messageKey.exportBytes()), "group_context": Hex.encode(admin.state.contextBytes),
            "sender_signature_key": Hex.encode(admin.state.ownMember.signatureKey), "epoch": NSNumber(value: pt.epoch),
            "body": Hex.encode(body), "plaintext": Hex.encode(pt.tlsSerialized), "sealed": Hex.encode(sealed),
        ] as [String: Any]]

        // Commits processed by carol (rebuilt from her Welcome).
        func commitCase(_ name: String, _ p: GroupEventPlaintext, expect: String, fingerprint: [UInt8]?) -> [String: Any] {
            var d: [String: Any] = ["name": name, "receiver_bundle": Hex.encode(carol.privateSerialization().exportBytes()),
                                    "receiver_welcome": Hex.encode(carolWelcome.tlsSerialized),
                                    "commit_plaintext": Hex.encode(p.tlsSerialized), "expect": expect]
            if let fingerprint { d["epoch_fingerprint"] = Hex.encode(fingerprint) }
            return d
        }
        let addDave = try admin.state.createCommit([.add(dave.keyPackage)], rng: rng)
        var forged = addDave.plaintext
        forged.signature[0] ^= 1
        var badTag = addDave.plaintext
        badTag.confirmationTag[0] ^= 1
        var wrongEpoch = addDave.plaintext
        wrongEpoch.epoch += 1
        var fakeErin = try GroupState.join(welcome: w1.first { $0.keyPackageRef == erin.reference }!, bundle: erin)
        fakeErin.members[fakeErin.ownIndex].isAdmin = true
        let nonAdmin = try fakeErin.createCommit([.remove(identity: bob.keyPackage.leafNode.credential.identity)], rng: rng)
        let removeCarol = try admin.state.createCommit([.remove(identity: carol.keyPackage.leafNode.credential.identity)], rng: rng)
        let bobState = try GroupState.join(welcome: w1.first { $0.keyPackageRef == bob.reference }!, bundle: bob)
        let bobUpdate = try bobState.createCommit([.selfUpdate], rng: rng)
        root["commits"] = [
            commitCase("add", addDave.plaintext, expect: "applied", fingerprint: addDave.newState.epochFingerprint),
            commitCase("self_update_by_admin_bob", bobUpdate.plaintext, expect: "applied", fingerprint: bobUpdate.newState.epochFingerprint),
            commitCase("remove_receiver", removeCarol.plaintext, expect: "removed", fingerprint: nil),
            commitCase("forged_signature", forged, expect: GroupError.Code.forged.rawValue, fingerprint: nil),
            commitCase("bad_confirmation_tag", badTag, expect: GroupError.Code.invalidConfirmationTag.rawValue, fingerprint: nil),
            commitCase("wrong_epoch", wrongEpoch, expect: GroupError.Code.wrongEpoch.rawValue, fingerprint: nil),
            commitCase("non_admin_remove", nonAdmin.plaintext, expect: GroupError.Code.notAdmin.rawValue, fingerprint: nil),
        ]
        root["simulations"] = try [(4, 1, UInt64(1)), (9, 3, UInt64(2))].map { m, r, seed -> [String: Any] in
            ["members": m, "removals": r, "seed": NSNumber(value: seed),
             "epochs": simulationJSON(try GroupSimulation.run(members: m, removals: r, seed: seed))]
        }
        return try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
    }
}
