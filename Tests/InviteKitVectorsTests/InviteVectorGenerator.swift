import XCTest
import InviteKitTestSupport
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitInvites
import InviteKitVectors

/// The fixed keys the invite vectors are built with (never real keys): the secret scalar 3 and
/// BIP-340's test key.
private enum VectorKeys {
    static let creatorSecretHex = "0000000000000000000000000000000000000000000000000000000000000003"
    static let otherSecretHex = "b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef"
    static var creator: Secp256k1.PrivateKey { try! Secp256k1.PrivateKey(rawRepresentation: Hex.decode(creatorSecretHex)!) }
    static var other: Secp256k1.PrivateKey { try! Secp256k1.PrivateKey(rawRepresentation: Hex.decode(otherSecretHex)!) }
}

/// Writes `vectors/invites/*.json` when `INVITEKIT_WRITE_VECTORS=1`. Everything is fixed: keys,
/// token nonces, tags, times; ECDSA nonces are RFC 6979, so signatures are reproducible.
final class InviteVectorGenerator: XCTestCase {
    let creator = VectorKeys.creator
    let other = VectorKeys.other
    var npub: String { NIP19.npub(creator.publicKey) }
    let group = "7d3c9b1a5e2f4d6c8b0a1f2e3d4c5b6a79887766554433221100ffeeddccbbaa"

    func testWriteVectors() throws {
        guard ProcessInfo.processInfo.environment["INVITEKIT_WRITE_VECTORS"] == "1" else {
            throw XCTSkip("set INVITEKIT_WRITE_VECTORS=1 to regenerate vectors/invites")
        }
        try write("whistle-codes.json", "Whistle invite codes: canonical encodings (reproduce exactly) and tolerant variants (decode only).", whistle())
        try write("approval-urls.json", "whistle://addmember/<pubkeyHex>/<groupId percent-encoded>: canonical (build and parse) and tolerant (parse).", approvals())
        try write("conversation-tokens.json", "Conversation tokens: HKDF-SHA256(secret key, salt ConvosInviteV1, info inbox:<creatorId>) + ChaCha20-Poly1305 with the given nonce; layout 01|nonce|ct|tag.", tokens())
        try write("signed-invites.json", "Signed invites: build (payload, RFC 6979 signature, slug) and decode/verify; decode-only cases cover zlib variants and link forms.", try signed())
        try write("negative.json", "Inputs that must fail, with the expected error code (InviteError codes; ProtobufError codes for kind payload).", try negative())
    }

    func write(_ file: String, _ description: String, _ cases: [JSONValue]) throws {
        let body = cases.map { "    " + JSONWriter.serialize($0) }.joined(separator: ",\n")
        let text = "{\n  \"description\": " + JSONWriter.serialize(.string(description)) + ",\n  \"cases\": [\n" + body + "\n  ]\n}\n"
        try text.write(to: VectorFiles.url("invites/" + file), atomically: true, encoding: .utf8)
    }

    func obj(_ pairs: [(String, JSONValue)]) -> JSONValue { .object(pairs.map { JSONMember($0.0, $0.1) }) }
    func s(_ v: String) -> JSONValue { .string(v) }
    func b64(_ json: String, _ alphabet: Base64.Alphabet = .standard, padded: Bool = true) -> String {
        Base64.encode(Array(json.utf8), alphabet: alphabet, padded: padded)
    }

    func whistle() -> [JSONValue] {
        var out = [JSONValue]()
        func add(_ name: String, relay: String, groupId: String, code: String? = nil, url: String? = nil, canonical: Bool) {
            var p: [(String, JSONValue)] = [("name", s(name)), ("relay", s(relay)), ("inviterNpub", s(npub)), ("groupId", s(groupId))]
            if let code { p.append(("code", s(code))) }
            if let url { p.append(("url", s(url))) }
            p.append(("canonical", .bool(canonical)))
            out.append(obj(p))
        }
        let a = InviteCode(relay: "wss://relay.damus.io", inviterNpub: npub, groupId: group)
        add("canonical", relay: a.relay, groupId: a.groupId, code: a.code, url: a.url, canonical: true)
        var slashy: InviteCode!
        for i in 0... {
            let c = InviteCode(relay: "wss://relay.example.com/nostr", inviterNpub: npub, groupId: "team-\(i)-???>>>")
            if c.code.contains("/") && c.code.contains("+") { slashy = c; break }
        }
        add("canonical code containing / and +", relay: slashy.relay, groupId: slashy.groupId, code: slashy.code, url: slashy.url, canonical: true)
        let quoted = InviteCode(relay: "wss://r.example/\"q\"", inviterNpub: npub, groupId: "tab\there\\ünï")
        add("canonical with escapes and non-ASCII", relay: quoted.relay, groupId: quoted.groupId, code: quoted.code, canonical: true)
        let json = a.canonicalJSON
        add("unpadded", relay: a.relay, groupId: group, code: b64(json, padded: false), canonical: false)
        add("url-safe alphabet", relay: slashy.relay, groupId: slashy.groupId, code: b64(slashy.canonicalJSON, .urlSafe, padded: false), canonical: false)
        add("surrounding whitespace", relay: a.relay, groupId: group, code: " \n\t" + a.code + "\r\n ", canonical: false)
        let reordered = "{\"groupId\":\"\(group)\",\"inviterNpub\":\"\(npub)\",\"relay\":\"wss:\\/\\/relay.damus.io\"}"
        add("any key order and escaped slashes", relay: a.relay, groupId: group, code: b64(reordered), canonical: false)
        let extra = "{ \"v\": 2, \"relay\": \"wss://relay.damus.io\", \"inviterNpub\": \"\(npub)\", \"groupId\": \"\(group)\", \"meta\": {\"x\": [1, 2.5, null, true, {\"y\": \"z\"}]} }"
        add("extra keys and whitespace", relay: a.relay, groupId: group, code: b64(extra), canonical: false)
        let deep31 = String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
        add("nesting of exactly 32", relay: a.relay, groupId: group,
            code: b64("{\"relay\":\"wss://relay.damus.io\",\"inviterNpub\":\"\(npub)\",\"groupId\":\"\(group)\",\"x\":\(deep31)}"), canonical: false)
        add("url with a raw slash (Whistle's own form)", relay: slashy.relay, groupId: slashy.groupId, url: "whistle://invite/" + slashy.code, canonical: false)
        add("url where + became a space", relay: slashy.relay, groupId: slashy.groupId,
            url: "whistle://invite/" + slashy.code.replacingOccurrences(of: "+", with: " "), canonical: false)
        add("url with upper-case scheme and a query", relay: a.relay, groupId: group, url: "WHISTLE://invite/" + a.code + "?via=qr", canonical: false)
        add("bare code as url input", relay: a.relay, groupId: group, url: a.code, canonical: false)
        return out
    }

    func approvals() -> [JSONValue] {
        var out = [JSONValue]()
        func add(_ name: String, _ groupId: String, url: String? = nil) {
            let a = ApprovalURL(pubkey: other.publicKey, groupId: groupId)
            out.append(obj([("name", s(name)), ("pubkey", s(other.publicKey.hex)), ("groupId", s(groupId)),
                            ("url", s(url ?? a.url)), ("canonical", .bool(url == nil))]))
        }
        add("hex group id", group)
        add("group id with reserved characters", "team/alpha beta?#%&+=")
        add("non-ASCII group id", "grüppe ✨")
        add("upper-case key", group, url: "whistle://addmember/\(other.publicKey.hex.uppercased())/\(group)")
        add("raw slash in group id", "a/b", url: "whistle://addmember/\(other.publicKey.hex)/a/b")
        add("trailing query ignored", group, url: "whistle://addmember/\(other.publicKey.hex)/\(group)?src=nfc")
        return out
    }

    func nonce(_ seed: UInt8) -> [UInt8] { (0..<12).map { seed &+ UInt8($0) } }

    func tokens() -> [JSONValue] {
        let id = creator.publicKey.hex
        let convs: [(String, String)] = [
            ("uuid form", "f47ac10b-58cc-4372-a567-0e02b2c3d479"),
            ("upper-case uuid stays a string", "F47AC10B-58CC-4372-A567-0E02B2C3D479"),
            ("nostr group id (64 hex)", group),
            ("one character", "g"),
            ("255 bytes: one-byte length", String(repeating: "a", count: 255)),
            ("256 bytes: 0x00 + u16 length", String(repeating: "b", count: 256)),
            ("UTF-8", "gruppe-ü-✨"),
        ]
        return convs.enumerated().map { i, pair in
            let n = nonce(UInt8(i * 16))
            let t = try! ConversationToken.seal(conversationID: pair.1, creatorKey: creator, creatorId: id, nonce: n)
            return obj([("name", s(pair.0)), ("creatorSecretKey", s(VectorKeys.creatorSecretHex)), ("creatorId", s(id)),
                        ("conversationId", s(pair.1)), ("plaintext", s(Hex.encode(try! ConversationToken.encodePlaintext(pair.1)))),
                        ("nonce", s(Hex.encode(n))), ("token", s(Hex.encode(t)))])
        }
    }

    func optionsJSON(_ o: InviteOptions) -> JSONValue {
        var p: [(String, JSONValue)] = [("relays", .array(o.relays.map { s($0) }))]
        if let v = o.name { p.append(("name", s(v))) }
        if let v = o.description { p.append(("description", s(v))) }
        if let v = o.imageURL { p.append(("imageURL", s(v))) }
        if let v = o.emoji { p.append(("emoji", s(v))) }
        if let v = o.expiresAtUnix { p.append(("expiresAt", .number(String(v)))) }
        if let v = o.conversationExpiresAtUnix { p.append(("conversationExpiresAt", .number(String(v)))) }
        p.append(("singleUse", .bool(o.singleUse)))
        if let v = o.tag { p.append(("tag", s(v))) }
        return obj(p)
    }

    func build(_ o: InviteOptions, nonce n: [UInt8]) throws -> SignedInvite {
        let token = try ConversationToken.seal(conversationID: group, creatorKey: creator, creatorId: creator.publicKey.hex, nonce: n)
        return try SignedInvite.create(token: token, creator: creator, options: o)
    }

    var fullOptions: InviteOptions {
        InviteOptions(relays: ["wss://relay.damus.io", "wss://nos.lol", "wss://relay.primal.net"],
                      name: "Weekend hikers", description: "Trails, carpools and photos. Trails, carpools and photos.",
                      imageURL: "https://images.example.com/hikers.jpg", emoji: "🥾",
                      expiresAtUnix: 1_893_456_000, conversationExpiresAtUnix: 1_924_992_000, singleUse: true, tag: "Hk7pQ2xZ9a")
    }

    func signed() throws -> [JSONValue] {
        var out = [JSONValue]()
        func built(_ name: String, _ o: InviteOptions, _ n: [UInt8], compressed: Bool, domain: String? = nil) throws {
            let inv = try build(o, nonce: n)
            var p: [(String, JSONValue)] = [
                ("name", s(name)), ("creatorSecretKey", s(VectorKeys.creatorSecretHex)), ("conversationId", s(group)),
                ("nonce", s(Hex.encode(n))), ("options", optionsJSON(o)), ("payload", s(Hex.encode(inv.payloadBytes))),
                ("signature", s(Hex.encode(inv.signature))), ("compressed", .bool(compressed)),
                ("slug", s(inv.encodedSlug(compress: compressed))),
            ]
            if let domain { p += [("domain", s(domain)), ("url", s(try inv.url(domain: domain, compress: compressed)))] }
            out.append(obj(p))
        }
        func decodeOnly(_ name: String, payload: [UInt8], input: String, asURL: Bool) {
            out.append(obj([("name", s(name)), ("creatorSecretKey", s(VectorKeys.creatorSecretHex)), ("payload", s(Hex.encode(payload))),
                            (asURL ? "url" : "slug", s(input))]))
        }
        try built("minimal, uncompressed (DEFLATE not smaller)", InviteOptions(relays: ["wss://relay.damus.io"], tag: "AbCdEfGhIj"),
                  nonce(1), compressed: true, domain: "join.example.org")
        try built("all fields, raw DEFLATE framing", fullOptions, nonce(2), compressed: true, domain: "join.example.org")
        try built("all fields, compression disabled", fullOptions, nonce(2), compressed: false)
        var long = fullOptions
        long.description = String(repeating: "A long description that repeats. ", count: 40)
        long.relays = (1...8).map { "wss://relay\($0).example.net" }
        try built("long invite: slug split by * every 300", long, nonce(3), compressed: true)

        let inv = try build(fullOptions, nonce: nonce(2))
        let wire = inv.serializedBytes()
        let n = UInt32(wire.count)
        let size = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        let z = InviteCompression.rawDeflate(wire, zlibWrapped: true)!
        decodeOnly("0x1F + size + zlib stream", payload: inv.payloadBytes, input: InviteSlug.encode([0x1F] + size + z), asURL: false)
        decodeOnly("bare zlib stream (0x78)", payload: inv.payloadBytes, input: InviteSlug.encode(z), asURL: false)
        let slug = inv.encodedSlug()
        decodeOnly("link /i/<slug>", payload: inv.payloadBytes, input: "https://popup.convos.org/i/" + slug, asURL: true)
        decodeOnly("link ?code=<slug>", payload: inv.payloadBytes, input: "https://example.com/invite?ref=x&code=" + slug, asURL: true)
        decodeOnly("convos://join/<slug>", payload: inv.payloadBytes, input: "convos://join/" + slug, asURL: true)
        decodeOnly("convos://invite/<slug>", payload: inv.payloadBytes, input: "convos://invite/" + slug, asURL: true)
        decodeOnly("padded base64url with whitespace", payload: inv.payloadBytes,
                   input: "  " + Base64.encode(InviteCompression.compressIfSmaller(wire), alphabet: .urlSafe, padded: true) + "\n", asURL: false)
        // Unknown payload field 150 (varint) under the signature.
        let extended = inv.payloadBytes + [0xB0, 0x09, 0x2A]
        let sig = try creator.recoverableSignature(digest32: SHA256.hash(extended))
        let withUnknown = try SignedInvite(payloadBytes: extended, signature: sig)
        decodeOnly("unknown payload field kept under the signature", payload: extended, input: withUnknown.encodedSlug(), asURL: false)
        return out
    }

    func negative() throws -> [JSONValue] {
        var out = [JSONValue]()
        func add(_ name: String, _ kind: String, _ input: String, _ error: String, _ extra: [(String, JSONValue)] = []) {
            out.append(obj([("name", s(name)), ("kind", s(kind)), ("input", s(input)), ("error", s(error))] + extra))
        }
        let g = group
        add("missing groupId", "whistle_code", b64("{\"relay\":\"wss://r\",\"inviterNpub\":\"\(npub)\"}"), "missing_key")
        add("numeric relay", "whistle_code", b64("{\"relay\":7,\"inviterNpub\":\"\(npub)\",\"groupId\":\"\(g)\"}"), "non_string_value")
        add("null groupId", "whistle_code", b64("{\"relay\":\"wss://r\",\"inviterNpub\":\"\(npub)\",\"groupId\":null}"), "non_string_value")
        add("hex instead of npub", "whistle_code", b64("{\"relay\":\"wss://r\",\"inviterNpub\":\"\(creator.publicKey.hex)\",\"groupId\":\"\(g)\"}"), "invalid_npub")
        add("npub with bad checksum", "whistle_code", b64("{\"relay\":\"wss://r\",\"inviterNpub\":\"\(npub.dropLast())q\",\"groupId\":\"\(g)\"}"), "invalid_npub")
        let deep = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        add("nesting of 33", "whistle_code", b64("{\"relay\":\"wss://r\",\"inviterNpub\":\"\(npub)\",\"groupId\":\"\(g)\",\"x\":\(deep)}"), "json_too_deep")
        add("over the size cap", "whistle_code", String(repeating: "QUFB", count: 1025), "input_too_large")
        add("not base64", "whistle_code", "%%%%", "invalid_encoding")
        add("array, not object", "whistle_code", b64("[\"wss://r\"]"), "invalid_json")
        add("truncated JSON", "whistle_code", b64("{\"relay\":\"wss://r\""), "invalid_json")
        add("duplicate key", "whistle_code", b64("{\"relay\":\"a\",\"relay\":\"b\",\"inviterNpub\":\"\(npub)\",\"groupId\":\"\(g)\"}"), "duplicate_key")
        add("invalid UTF-8 in JSON", "whistle_code", Base64.encode([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]), "invalid_json")
        add("wrong url host", "whistle_url", "whistle://join/abc", "unrecognized_url")
        add("wrong url scheme", "whistle_url", "https://example.com/invite/abc", "unrecognized_url")
        add("bad percent escape", "whistle_url", "whistle://invite/ab%zz", "invalid_encoding")

        add("short key", "approval_url", "whistle://addmember/abcd/\(g)", "invalid_public_key")
        add("key not on the curve", "approval_url", "whistle://addmember/\(String(repeating: "f", count: 64))/\(g)", "invalid_public_key")
        add("missing group", "approval_url", "whistle://addmember/\(other.publicKey.hex)", "invalid_approval_url")
        add("empty group", "approval_url", "whistle://addmember/\(other.publicKey.hex)/", "invalid_approval_url")
        add("bad escape", "approval_url", "whistle://addmember/\(other.publicKey.hex)/a%2", "invalid_approval_url")
        add("escape to invalid UTF-8", "approval_url", "whistle://addmember/\(other.publicKey.hex)/%C3%28", "invalid_approval_url")
        add("wrong host", "approval_url", "whistle://invite/\(other.publicKey.hex)/g", "invalid_approval_url")

        add("truncated varint", "payload", "4880", "truncated_varint")
        add("overlong varint", "payload", "48" + String(repeating: "ff", count: 10) + "01", "overlong_varint")
        add("length past end", "payload", "0a0501", "length_past_end")
        add("tag as varint", "payload", "1801", "wrong_wire_type")
        add("expiresAt as varint", "payload", "4001", "wrong_wire_type")
        add("truncated sfixed64", "payload", "41010203", "truncated_fixed")
        add("start group", "payload", "0b", "group_wire_type")
        add("end group", "payload", "5c", "group_wire_type")
        add("wire type 6", "payload", "5e", "invalid_wire_type")
        add("field number 0", "payload", "0001", "invalid_field_number")
        add("name not UTF-8", "payload", "2202c328", "invalid_utf8")

        let inv = try build(fullOptions, nonce: nonce(2))
        let slug = inv.encodedSlug()
        var badSig = inv.signature
        badSig[5] ^= 0x40
        add("flipped signature bit", "signed_link", try SignedInvite(payloadBytes: inv.payloadBytes, signature: badSig).encodedSlug(), "invalid_signature")
        var badRecid = inv.signature
        badRecid[64] = 4
        add("recovery id 4", "signed_link", try SignedInvite(payloadBytes: inv.payloadBytes, signature: badRecid).encodedSlug(), "invalid_signature")
        add("64-byte signature", "signed_link", try SignedInvite(payloadBytes: inv.payloadBytes, signature: Array(inv.signature.prefix(64))).encodedSlug(), "invalid_signature")
        var forgedPayload = inv.payload
        forgedPayload.creatorInboxId = other.publicKey.rawRepresentation
        add("creator_inbox_id is not the signer", "signed_link", try SignedInvite.sign(forgedPayload, with: creator).encodedSlug(), "invalid_signature")
        add("another creator required", "signed_link", slug, "creator_mismatch", [("expectedCreator", s(other.publicKey.hex)), ("now", .number("1800000000"))])
        add("invite expired (at expiresAt)", "signed_link", slug, "invite_expired", [("now", .number("1893456000"))])
        var convOnly = fullOptions
        convOnly.expiresAtUnix = nil
        add("conversation expired", "signed_link", try build(convOnly, nonce: nonce(4)).encodedSlug(), "conversation_expired", [("now", .number("1924992001"))])
        add("revoked: group tag rotated", "signed_link", slug, "invite_revoked", [("now", .number("1800000000")), ("currentTag", s("Zz9Yy8Xx7W"))])
        let wire = inv.serializedBytes()
        let deflated = InviteCompression.rawDeflate(wire)!
        func framed(_ size: Int, _ body: [UInt8]) -> String {
            InviteSlug.encode([0x1F, UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + body)
        }
        add("declared size too small", "signed_link", framed(wire.count - 1, deflated), "size_mismatch")
        add("declared size too large", "signed_link", framed(wire.count + 1, deflated), "size_mismatch")
        add("declared over 1 MiB", "signed_link", framed((1 << 20) + 1, deflated), "decompressed_too_large")
        add("declared ratio over 100", "signed_link", framed(deflated.count * 100 + 1, deflated), "compression_ratio_exceeded")
        let bomb = InviteCompression.rawDeflate([UInt8](repeating: 0, count: 1 << 20), zlibWrapped: true)!
        add("bare zlib bomb (ratio)", "signed_link", InviteSlug.encode(bomb), "compression_ratio_exceeded")
        add("corrupt DEFLATE", "signed_link", framed(100, [0xFF, 0xFF, 0xFF, 0xFF]), "decompression_failed")
        add("truncated DEFLATE", "signed_link", framed(wire.count, Array(deflated.dropLast(4))), "decompression_failed")
        add("not base64", "signed_link", "https://join.example.org/v2?i=@@@", "invalid_encoding")
        add("unknown scheme", "signed_link", "ftp://join.example.org/v2?i=" + slug, "unrecognized_url")
        add("https without an invite", "signed_link", "https://join.example.org/v2?x=1", "unrecognized_url")
        add("SignedInvite with group wire type", "signed_link", InviteSlug.encode([0x0A, 0x01, 0x00, 0x13]), "malformed_protobuf")
        add("payload with wrong wire type", "signed_link", InviteSlug.encode([0x0A, 0x02, 0x18, 0x01]), "malformed_protobuf")

        let id = creator.publicKey.hex
        let good = try ConversationToken.seal(conversationID: g, creatorKey: creator, creatorId: id, nonce: nonce(9))
        let tk: [(String, JSONValue)] = [("creatorSecretKey", s(VectorKeys.creatorSecretHex)), ("creatorId", s(id))]
        add("token version 2", "token", Hex.encode([0x02] + good.dropFirst()), "token_unsupported_version", tk)
        add("token shorter than nonce and tag", "token", Hex.encode(Array(good.prefix(28))), "token_malformed", tk)
        var flipped = good
        flipped[20] ^= 1
        add("token ciphertext bit flipped", "token", Hex.encode(flipped), "token_decryption_failed", tk)
        add("token for another creator id", "token", Hex.encode(good), "token_decryption_failed",
            [("creatorSecretKey", s(VectorKeys.creatorSecretHex)), ("creatorId", s(other.publicKey.hex))])
        add("token opened with another key", "token", Hex.encode(good), "token_decryption_failed",
            [("creatorSecretKey", s(VectorKeys.otherSecretHex)), ("creatorId", s(id))])
        return out
    }
}
