import InviteKitCrypto
import InviteKitNostr

/// Runs the Nostr-layer vector files (BIP-340, NIP-19, NIP-44, NIP-59) found under a
/// `vectors/` directory. The XCTest suites check the same files case by case.
package enum NostrVectorSuites {
    /// The files these suites read and the fewest cases each must run (`VectorSuiteRegistry`).
    package static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: "bip340", files: ["external/bip340-test-vectors.csv"], minimumCases: 19),
        VectorSuiteDeclaration(suite: "nip19", files: ["external/nip19-examples.json"], minimumCases: 14),
        VectorSuiteDeclaration(suite: "nip44", files: ["external/nip44.vectors.json"], minimumCases: 128),
        VectorSuiteDeclaration(suite: "nip59", files: ["external/nip59-example.json"], minimumCases: 1),
    ]

    package static func run(directory: String) -> [VectorSuiteResult] {
        [bip340(directory), nip19(directory), nip44(directory), nip59(directory)]
    }

    /// A string field of a vector row; a missing one fails the case instead of reading as "".
    static func field(_ row: JSONValue, _ key: String) throws -> String {
        guard let s = row[key]?.stringValue else { throw NostrError(.missingField, "vector row lacks \"\(key)\"") }
        return s
    }

    static func bip340(_ dir: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "bip340")
        guard let bytes = FileBytes.read(dir + "/external/bip340-test-vectors.csv") else { return .unreadable(r.suite, "missing file") }
        let rows = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst()
        for (n, line) in rows.enumerated() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            // A row that does not parse is a failure, never a skip or a pass.
            guard f.count >= 7, Int(f[0]) != nil, f[6] == "TRUE" || f[6] == "FALSE",
                  Hex.decode(f[2]) != nil, Hex.decode(f[4]) != nil, Hex.decode(f[5]) != nil,
                  f[1].isEmpty || Hex.decode(f[1]) != nil, f[3].isEmpty || Hex.decode(f[3]) != nil else {
                r.failed += 1
                r.failures.append("line \(n + 2): not a BIP-340 vector row")
                continue
            }
            r.check("row \(f[0])") {
                let valid = f[6] == "TRUE"
                let key = try? Secp256k1.XOnlyPublicKey(rawRepresentation: Hex.decode(f[2]) ?? [])
                let ok = key?.isValidSchnorrSignature(Hex.decode(f[5]) ?? [], for: Hex.decode(f[4]) ?? []) ?? false
                if ok != valid { return "verify gave \(ok), expected \(valid)" }
                if !f[1].isEmpty {
                    let sk = try Secp256k1.PrivateKey(rawRepresentation: Hex.decode(f[1]) ?? [])
                    let sig = try sk.schnorrSignature(for: Hex.decode(f[4]) ?? [], auxiliaryRandomness: Hex.decode(f[3]))
                    if Hex.encode(sig) != f[5].lowercased() { return "signature differs" }
                }
                return nil
            }
        }
        return r.passed + r.failed == 0 ? .unreadable(r.suite, "no cases") : r
    }

    static func nip19(_ dir: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "nip19")
        guard let root = try? VectorFile.load(dir, "external/nip19-examples.json"), let examples = root["examples"]?.arrayValue else {
            return .unreadable(r.suite, "missing or malformed file")
        }
        for (i, e) in examples.enumerated() {
            // A row without its fields is a failure, not an "invalid string" that passes.
            guard let text = e["bech32"]?.stringValue, e["valid"]?.boolValue != nil else {
                r.failed += 1
                r.failures.append("examples[\(i)]: no bech32 string or valid flag")
                continue
            }
            r.check(text) {
                let decoded = try? NIP19.decode(text)
                guard e["valid"]?.boolValue == true else { return decoded == nil ? nil : "accepted an invalid string" }
                guard let decoded else { return "rejected a valid string" }
                let d = e["decoded"]
                let fields: (String?, String?) = {
                    switch decoded {
                    case .npub(let k): return (k.hex, d?["hex"]?.stringValue)
                    case .nsec(let s): return (Hex.encode(s.exportBytes()), d?["hex"]?.stringValue)
                    case .note(let id): return (Hex.encode(id), d?["hex"]?.stringValue)
                    case .nprofile(let p): return (Hex.encode(p.pubkey), d?["pubkey"]?.stringValue)
                    case .nevent(let ev): return (Hex.encode(ev.id), d?["id"]?.stringValue)
                    case .naddr(let a): return (a.identifier, d?["identifier"]?.stringValue)
                    }
                }()
                if fields.0 != fields.1 { return "decoded \(fields.0 ?? "nil"), expected \(fields.1 ?? "nil")" }
                if e["roundtrip_reencodes_exactly"]?.boolValue == true, NIP19.encode(decoded) != text { return "re-encoding differs" }
                return nil
            }
        }
        return r.passed + r.failed == 0 ? .unreadable(r.suite, "no cases") : r
    }

    static func nip44(_ dir: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "nip44")
        guard let root = try? VectorFile.load(dir, "external/nip44.vectors.json"), let v2 = root["v2"],
              let valid = v2["valid"], let invalid = v2["invalid"] else { return .unreadable(r.suite, "missing or malformed file") }
        for (i, c) in (valid["get_conversation_key"]?.arrayValue ?? []).enumerated() {
            r.check("get_conversation_key[\(i)]") {
                let ck = try NIP44.ConversationKey(privateKey: .init(rawRepresentation: Hex.decode(try Self.field(c, "sec1")) ?? []),
                                                   publicKey: .init(rawRepresentation: Hex.decode(try Self.field(c, "pub2")) ?? []))
                return Hex.encode(ck.rawRepresentation.exportBytes()) == c["conversation_key"]?.stringValue ? nil : "key differs"
            }
        }
        for (i, c) in (invalid["get_conversation_key"]?.arrayValue ?? []).enumerated() {
            r.check("invalid.get_conversation_key[\(i)]") {
                let sec1 = try Self.field(c, "sec1"), pub2 = try Self.field(c, "pub2")
                let ok = try? NIP44.ConversationKey(privateKey: .init(rawRepresentation: Hex.decode(sec1) ?? []),
                                                    publicKey: .init(rawRepresentation: Hex.decode(pub2) ?? []))
                return ok == nil ? nil : "accepted"
            }
        }
        if let mk = valid["get_message_keys"], let ck = try? NIP44.ConversationKey(rawRepresentation: Hex.decode(mk["conversation_key"]?.stringValue ?? "") ?? []) {
            for (i, c) in (mk["keys"]?.arrayValue ?? []).enumerated() {
                r.check("get_message_keys[\(i)]") {
                    let k = ck.messageKeys(nonce: Hex.decode(try Self.field(c, "nonce")) ?? [])
                    let ok = Hex.encode(k.chachaKey.exportBytes()) == c["chacha_key"]?.stringValue
                        && Hex.encode(k.chachaNonce) == c["chacha_nonce"]?.stringValue
                        && Hex.encode(k.hmacKey.exportBytes()) == c["hmac_key"]?.stringValue
                    return ok ? nil : "keys differ"
                }
            }
        }
        for (i, c) in (valid["calc_padded_len"]?.arrayValue ?? []).enumerated() {
            r.check("calc_padded_len[\(i)]") {
                guard let pair = c.arrayValue, pair.count == 2, let n = pair[0].int64Value, let want = pair[1].int64Value else { return "malformed" }
                return NIP44.paddedLength(Int(n)) == Int(want) ? nil : "got \(NIP44.paddedLength(Int(n)))"
            }
        }
        for (i, c) in (valid["encrypt_decrypt"]?.arrayValue ?? []).enumerated() {
            r.check("encrypt_decrypt[\(i)]") {
                let sk1 = try Secp256k1.PrivateKey(rawRepresentation: Hex.decode(try Self.field(c, "sec1")) ?? [])
                let sk2 = try Secp256k1.PrivateKey(rawRepresentation: Hex.decode(try Self.field(c, "sec2")) ?? [])
                let ck = try NIP44.ConversationKey(privateKey: sk1, publicKey: sk2.publicKey)
                let plaintext = Array((try Self.field(c, "plaintext")).utf8)
                let payload = try NIP44.encrypt(plaintext, conversationKey: ck, nonce: Hex.decode(try Self.field(c, "nonce")))
                if payload != c["payload"]?.stringValue { return "payload differs" }
                let back = try NIP44.decrypt(payload, conversationKey: NIP44.ConversationKey(privateKey: sk2, publicKey: sk1.publicKey))
                return back == plaintext ? nil : "decryption differs"
            }
        }
        for (i, c) in (valid["encrypt_decrypt_long_msg"]?.arrayValue ?? []).enumerated() {
            r.check("encrypt_decrypt_long_msg[\(i)]") {
                let ck = try NIP44.ConversationKey(rawRepresentation: Hex.decode(try Self.field(c, "conversation_key")) ?? [])
                let pattern = Array((try Self.field(c, "pattern")).utf8)
                let plaintext = Array([[UInt8]](repeating: pattern, count: Int(c["repeat"]?.int64Value ?? 0)).joined())
                let payload = try NIP44.encrypt(plaintext, conversationKey: ck, nonce: Hex.decode(try Self.field(c, "nonce")))
                if Hex.encode(SHA256.hash(Array(payload.utf8))) != c["payload_sha256"]?.stringValue { return "payload hash differs" }
                return try NIP44.decrypt(payload, conversationKey: ck) == plaintext ? nil : "decryption differs"
            }
        }
        for (i, c) in (invalid["decrypt"]?.arrayValue ?? []).enumerated() {
            r.check("invalid.decrypt[\(i)]") {
                let ck = try NIP44.ConversationKey(rawRepresentation: Hex.decode(try Self.field(c, "conversation_key")) ?? [])
                let payload = try Self.field(c, "payload")
                return (try? NIP44.decrypt(payload, conversationKey: ck)) == nil ? nil : "accepted"
            }
        }
        // Amended by nips PR #1907: of [0, 65536, 100000, 10000000] only 0 stays invalid.
        for n in invalid["encrypt_msg_lengths"]?.arrayValue?.compactMap(\.int64Value) ?? [] {
            r.check("encrypt_msg_lengths[\(n)]") {
                let ck = try NIP44.ConversationKey(rawRepresentation: [UInt8](repeating: 1, count: 32))
                let plaintext = [UInt8](repeating: 0x61, count: Int(n))
                guard let payload = try? NIP44.encrypt(plaintext, conversationKey: ck) else { return n == 0 ? nil : "refused a valid length" }
                if n == 0 { return "accepted length 0" }
                return try NIP44.decrypt(payload, conversationKey: ck) == plaintext ? nil : "round trip differs"
            }
        }
        return r.passed + r.failed == 0 ? .unreadable(r.suite, "no cases") : r
    }

    static func nip59(_ dir: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "nip59")
        guard let v = try? VectorFile.load(dir, "external/nip59-example.json"), let wrapJSON = v["gift_wrap"] else {
            return .unreadable(r.suite, "missing or malformed file")
        }
        r.check("spec example") {
            var w = JSONWriter(); w.value(wrapJSON)
            let wrap = try NostrEvent(json: w.bytes)
            let recipient = try Secp256k1.PrivateKey(rawRepresentation: Hex.decode(v["keys"]?["recipient_secret_key"]?.stringValue ?? "") ?? [])
            let opened = try GiftWrap.unwrap(wrap, recipient: recipient)
            if opened.sender.hex != v["keys"]?["author_public_key"]?.stringValue { return "sender differs" }
            return opened.rumor.id == v["rumor"]?["id"]?.stringValue ? nil : "rumor id differs"
        }
        return r
    }
}
