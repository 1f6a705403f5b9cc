import Foundation
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// Runs the MLS vector suites found under a `vectors/` directory, for `invitekit vectors verify`
/// and the tests.
///
/// Suites (each skipped, i.e. absent from the result, when its file is missing):
/// - `mls-key-packages` — `external/mls-key-packages.json`: every MLSMessage parses and
///   re-serializes byte-exact; suite 1/3 packages also pass ``KeyPackage/verify()``.
/// - `mls-deserialization` — `external/mls-deserialization.json`: varint headers decode to the
///   length and re-encode to the same bytes.
/// - `mls-crypto-basics` — `external/mls-crypto-basics.json`, suites 1 and 3 only: RefHash,
///   ExpandWithLabel, DeriveSecret, DeriveTreeSecret, SignWithLabel, EncryptWithLabel.
/// - `mlswg-key-schedule`, `mlswg-secret-tree`, `mlswg-message-protection`,
///   `mlswg-transcript-hashes` — ``MLSWGScheduleSuites``, from `external/mls/`.
/// - the mlswg ratchet-tree suites of ``MLSWGTreeSuites`` (`external/mls/tree-*.json`, `treekem.json`).
package enum MLSVectorSuites {
    /// The files these suites read and the fewest cases each must run (`VectorSuiteRegistry`).
    package static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: "mls-key-packages", files: ["external/mls-key-packages.json"], minimumCases: 300),
        VectorSuiteDeclaration(suite: "mls-deserialization", files: ["external/mls-deserialization.json"], minimumCases: 14),
        VectorSuiteDeclaration(suite: "mls-crypto-basics", files: ["external/mls-crypto-basics.json"], minimumCases: 16),
        VectorSuiteDeclaration(suite: "mlswg-tree-math", files: ["external/mls/tree-math.json"], minimumCases: 10),
        VectorSuiteDeclaration(suite: "mlswg-tree-operations", files: ["external/mls/tree-operations.json"], minimumCases: 5),
        VectorSuiteDeclaration(suite: "mlswg-tree-validation", files: ["external/mls/tree-validation.json"], minimumCases: 28),
        VectorSuiteDeclaration(suite: "mlswg-treekem", files: ["external/mls/treekem.json"], minimumCases: 22),
        VectorSuiteDeclaration(suite: "mlswg-key-schedule", files: ["external/mls/key-schedule.json"], minimumCases: 10),
        VectorSuiteDeclaration(suite: "mlswg-secret-tree", files: ["external/mls/secret-tree.json"], minimumCases: 6),
        VectorSuiteDeclaration(suite: "mlswg-message-protection", files: ["external/mls/message-protection.json"], minimumCases: 2),
        VectorSuiteDeclaration(suite: "mlswg-transcript-hashes", files: ["external/mls/transcript-hashes.json"], minimumCases: 2),
        VectorSuiteDeclaration(suite: "mlswg-messages", files: ["external/mls/messages.json"], minimumCases: 5100),
        VectorSuiteDeclaration(suite: "mlswg-welcome", files: ["external/mls/welcome.json"], minimumCases: 2),
        VectorSuiteDeclaration(suite: "mlswg-passive-client-welcome", files: ["external/mls/passive-client-welcome.json"], minimumCases: 16),
        VectorSuiteDeclaration(suite: "mlswg-passive-client-handling-commit", files: ["external/mls/passive-client-handling-commit.json"], minimumCases: 14),
        VectorSuiteDeclaration(suite: "mlswg-passive-client-random", files: ["external/mls/passive-client-random.json"], minimumCases: 1),
    ]

    /// One suite's outcome.
    package typealias Result = (suite: String, passed: Int, failed: Int)

    /// `directory` is the `vectors/` root (the folder holding `external/` and `mls/`).
    package static func run(directory: URL) -> [Result] {
        var out: [Result] = []
        let ext = directory.appendingPathComponent("external")
        if let j = loadJSON(ext.appendingPathComponent("mls-key-packages.json")) as? [[String: Any]] {
            let r = keyPackages(j)
            out.append(("mls-key-packages", r.0, r.1))
        }
        if let j = loadJSON(ext.appendingPathComponent("mls-deserialization.json")) as? [[String: Any]] {
            let r = deserialization(j)
            out.append(("mls-deserialization", r.0, r.1))
        }
        if let j = loadJSON(ext.appendingPathComponent("mls-crypto-basics.json")) as? [[String: Any]] {
            let r = cryptoBasics(j)
            out.append(("mls-crypto-basics", r.0, r.1))
        }
        return out
    }

    /// The same suites as ``run(directory:)`` in the shape `invitekit vectors verify` collects
    /// (`VectorSuiteResult`, as `NostrVectorSuites.run(directory:)` returns).
    package static func results(directory: String) -> [VectorSuiteResult] {
        let url = URL(fileURLWithPath: directory)
        return run(directory: url).map { VectorSuiteResult(suite: $0.suite, passed: $0.passed, failed: $0.failed) }
            + MLSWGScheduleSuites.run(directory: url)
            + MLSWGTreeSuites.run(directory: url)
            + MLSWGEngineSuites.run(directory: url)
    }

    static func loadJSON(_ url: URL) -> Any? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
    }

    static func hex(_ any: Any?) -> [UInt8]? {
        guard let s = any as? String else { return nil }
        return Hex.decode(s)
    }

    /// Returns (passed, failed).
    static func keyPackages(_ entries: [[String: Any]]) -> (Int, Int) {
        var passed = 0, failed = 0
        for e in entries {
            guard let bytes = hex(e["mls_key_package"]) else { failed += 1; continue }
            do {
                let msg = try MLSMessage(tlsSerialized: bytes)
                guard msg.tlsSerialized == bytes else { failed += 1; continue }
                let kp = try msg.keyPackage
                if kp.cipherSuite.isSupported { try kp.verify() }
                passed += 1
            } catch {
                failed += 1
            }
        }
        return (passed, failed)
    }

    static func deserialization(_ entries: [[String: Any]]) -> (Int, Int) {
        var passed = 0, failed = 0
        for e in entries {
            guard let header = hex(e["vlbytes_header"]), let length = (e["length"] as? NSNumber)?.intValue else { failed += 1; continue }
            var r = TLSReader(header)
            var w = TLSWriter()
            w.writeVarint(length)
            if let v = try? r.readVarint(), v == length, r.isAtEnd, w.bytes == header { passed += 1 } else { failed += 1 }
        }
        return (passed, failed)
    }

    static func cryptoBasics(_ entries: [[String: Any]]) -> (Int, Int) {
        var passed = 0, failed = 0
        func check(_ ok: Bool) { if ok { passed += 1 } else { failed += 1 } }
        for e in entries {
            guard let raw = (e["cipher_suite"] as? NSNumber)?.uint16Value else { failed += 1; continue }
            let suite = CipherSuite(rawValue: raw)
            guard suite.isSupported else { continue }
            for (name, ok) in cryptoBasicsChecks(e, suite: suite) { _ = name; check(ok) }
        }
        return (passed, failed)
    }

    /// Each named check of one crypto-basics entry.
    static func cryptoBasicsChecks(_ e: [String: Any], suite: CipherSuite) -> [(String, Bool)] {
        var out: [(String, Bool)] = []
        if let t = e["ref_hash"] as? [String: Any], let label = t["label"] as? String, let value = hex(t["value"]), let want = hex(t["out"]) {
            out.append(("ref_hash", MLSCrypto.refHash(label: label, value: value) == want))
        } else { out.append(("ref_hash", false)) }
        if let t = e["expand_with_label"] as? [String: Any], let label = t["label"] as? String, let secret = hex(t["secret"]),
           let ctx = hex(t["context"]), let len = (t["length"] as? NSNumber)?.intValue, let want = hex(t["out"]) {
            out.append(("expand_with_label", MLSCrypto.expandWithLabel(secret: secret, label: label, context: ctx, length: len).exportBytes() == want))
        } else { out.append(("expand_with_label", false)) }
        if let t = e["derive_secret"] as? [String: Any], let label = t["label"] as? String, let secret = hex(t["secret"]), let want = hex(t["out"]) {
            out.append(("derive_secret", MLSCrypto.deriveSecret(secret: secret, label: label).exportBytes() == want))
        } else { out.append(("derive_secret", false)) }
        if let t = e["derive_tree_secret"] as? [String: Any], let label = t["label"] as? String, let secret = hex(t["secret"]),
           let gen = (t["generation"] as? NSNumber)?.uint32Value, let len = (t["length"] as? NSNumber)?.intValue, let want = hex(t["out"]) {
            out.append(("derive_tree_secret",
                        MLSCrypto.deriveTreeSecret(secret: secret, label: label, generation: gen, length: len).exportBytes() == want))
        } else { out.append(("derive_tree_secret", false)) }
        if let t = e["sign_with_label"] as? [String: Any], let label = t["label"] as? String, let priv = hex(t["priv"]),
           let pub = hex(t["pub"]), let content = hex(t["content"]), let sig = hex(t["signature"]) {
            out.append(("sign_with_label.verify", MLSCrypto.verifyWithLabel(publicKey: pub, label: label, content: content, signature: sig)))
            if let key = try? Ed25519.PrivateKey(rawRepresentation: priv), key.publicKey == pub {
                let mine = MLSCrypto.signWithLabel(key, label: label, content: content)
                out.append(("sign_with_label.sign", MLSCrypto.verifyWithLabel(publicKey: pub, label: label, content: content, signature: mine)))
            } else { out.append(("sign_with_label.sign", false)) }
        } else { out.append(("sign_with_label", false)) }
        if let t = e["encrypt_with_label"] as? [String: Any], let label = t["label"] as? String, let priv = hex(t["priv"]),
           let pub = hex(t["pub"]), let ctx = hex(t["context"]), let pt = hex(t["plaintext"]),
           let kem = hex(t["kem_output"]), let ct = hex(t["ciphertext"]) {
            let key = try? X25519.PrivateKey(rawRepresentation: priv)
            let opened = key.flatMap {
                try? MLSCrypto.decryptWithLabel(suite: suite, privateKey: $0, label: label, context: ctx,
                                                ciphertext: HPKECiphertext(kemOutput: kem, ciphertext: ct))
            }
            out.append(("encrypt_with_label.decrypt", opened == pt && key?.publicKey == pub))
            let roundTrip = key.flatMap { k -> [UInt8]? in
                guard let sealed = try? MLSCrypto.encryptWithLabel(suite: suite, publicKey: pub, label: label, context: ctx, plaintext: pt) else { return nil }
                return try? MLSCrypto.decryptWithLabel(suite: suite, privateKey: k, label: label, context: ctx, ciphertext: sealed)
            }
            out.append(("encrypt_with_label.round_trip", roundTrip == pt))
        } else { out.append(("encrypt_with_label", false)) }
        return out
    }
}
