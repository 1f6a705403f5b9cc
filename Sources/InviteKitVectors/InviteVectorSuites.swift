import Foundation
import InviteKitCrypto
import InviteKitNostr
import InviteKitInvites

/// Runs the invite test vectors in `vectors/invites/` (fixed keys and nonces), for
/// `invitekit vectors verify` and the test suite.
///
/// Suites and files:
/// - `invites.whistle_codes` — `whistle-codes.json`: canonical codes (encode must reproduce
///   them byte for byte), tolerant variants and URL forms (decode must give the fields).
/// - `invites.approval_urls` — `approval-urls.json`: build and parse.
/// - `invites.conversation_tokens` — `conversation-tokens.json`: seal with the given nonce
///   reproduces the token; open gives the conversation id back.
/// - `invites.signed_invites` — `signed-invites.json`: building from key, nonce and options
///   reproduces payload, signature (RFC 6979, deterministic) and slug (compressed slugs by
///   framing and inflated bytes, since DEFLATE output varies by compressor); decoding the slug
///   or link (raw DEFLATE, zlib-framed, bare zlib, uncompressed) verifies to the creator.
/// - `invites.negative` — `negative.json`: each input fails with the expected error code.
package enum InviteVectorSuites {
    /// The files these suites read and the fewest cases each must run (`VectorSuiteRegistry`).
    package static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: "invites.whistle_codes", files: ["invites/whistle-codes.json"], minimumCases: 13),
        VectorSuiteDeclaration(suite: "invites.approval_urls", files: ["invites/approval-urls.json"], minimumCases: 6),
        VectorSuiteDeclaration(suite: "invites.conversation_tokens", files: ["invites/conversation-tokens.json"], minimumCases: 7),
        VectorSuiteDeclaration(suite: "invites.signed_invites", files: ["invites/signed-invites.json"], minimumCases: 12),
        VectorSuiteDeclaration(suite: "invites.negative", files: ["invites/negative.json"], minimumCases: 58),
    ]

    /// `directory` is either the `vectors` root or `vectors/invites` itself.
    package static func run(directory: String) -> [VectorSuiteResult] {
        let dir = FileManager.default.fileExists(atPath: directory + "/invites/whistle-codes.json") ? directory + "/invites" : directory
        return [
            suite("invites.whistle_codes", dir, "whistle-codes.json", whistleCase),
            suite("invites.approval_urls", dir, "approval-urls.json", approvalCase),
            suite("invites.conversation_tokens", dir, "conversation-tokens.json", tokenCase),
            suite("invites.signed_invites", dir, "signed-invites.json", signedCase),
            suite("invites.negative", dir, "negative.json", negativeCase),
        ]
    }

    static func suite(_ name: String, _ dir: String, _ file: String, _ body: (JSONValue) throws -> String?) -> VectorSuiteResult {
        let value: JSONValue
        do { value = try VectorFile.load(dir, file) } catch { return .unreadable(name, "cannot read \(file): \(error)") }
        guard let cases = value["cases"]?.arrayValue, !cases.isEmpty else { return .unreadable(name, "\(file) has no cases") }
        var r = VectorSuiteResult(suite: name)
        for (i, c) in cases.enumerated() {
            r.check(c["name"]?.stringValue ?? "#\(i)") { try body(c) }
        }
        return r
    }

    struct Missing: Error, CustomStringConvertible {
        let key: String
        var description: String { "vector lacks \"\(key)\"" }
    }

    static func str(_ c: JSONValue, _ k: String) throws -> String {
        guard let s = c[k]?.stringValue else { throw Missing(key: k) }
        return s
    }

    static func hex(_ c: JSONValue, _ k: String) throws -> [UInt8] {
        guard let b = Hex.decode(try str(c, k)) else { throw Missing(key: k) }
        return b
    }

    static func expect<T: Equatable>(_ what: String, _ got: T, _ want: T) -> String? {
        got == want ? nil : "\(what): got \(got), want \(want)"
    }

    static func whistleCase(_ c: JSONValue) throws -> String? {
        let want = InviteCode(relay: try str(c, "relay"), inviterNpub: try str(c, "inviterNpub"), groupId: try str(c, "groupId"))
        if let code = c["code"]?.stringValue {
            if c["canonical"]?.boolValue == true, let p = expect("encoded code", want.code, code) { return p }
            if let p = expect("decoded", try InviteCode(code: code), want) { return p }
        }
        if let url = c["url"]?.stringValue {
            if c["canonical"]?.boolValue == true, let p = expect("encoded url", want.url, url) { return p }
            if let p = expect("decoded url", try InviteCode(url: url), want) { return p }
        }
        return nil
    }

    static func approvalCase(_ c: JSONValue) throws -> String? {
        let key = try Secp256k1.XOnlyPublicKey(rawRepresentation: try hex(c, "pubkey"))
        let want = ApprovalURL(pubkey: key, groupId: try str(c, "groupId"))
        let url = try str(c, "url")
        if c["canonical"]?.boolValue == true, let p = expect("built", want.url, url) { return p }
        return expect("parsed", try ApprovalURL(url: url), want)
    }

    static func tokenCase(_ c: JSONValue) throws -> String? {
        let key = try Secp256k1.PrivateKey(rawRepresentation: try hex(c, "creatorSecretKey"))
        let creatorId = try str(c, "creatorId")
        let conv = try str(c, "conversationId")
        let token = try hex(c, "token")
        if let p = expect("plaintext", Hex.encode(try ConversationToken.encodePlaintext(conv)), try str(c, "plaintext")) { return p }
        let sealed = try ConversationToken.seal(conversationID: conv, creatorKey: key, creatorId: creatorId, nonce: try hex(c, "nonce"))
        if let p = expect("token", Hex.encode(sealed), Hex.encode(token)) { return p }
        return expect("opened", try ConversationToken.open(token, creatorKey: key, creatorId: creatorId), conv)
    }

    static func options(_ o: JSONValue?) -> InviteOptions {
        var opts = InviteOptions()
        guard let o else { return opts }
        opts.relays = o["relays"]?.arrayValue?.compactMap(\.stringValue) ?? []
        opts.name = o["name"]?.stringValue
        opts.description = o["description"]?.stringValue
        opts.imageURL = o["imageURL"]?.stringValue
        opts.emoji = o["emoji"]?.stringValue
        opts.expiresAtUnix = o["expiresAt"]?.int64Value
        opts.conversationExpiresAtUnix = o["conversationExpiresAt"]?.int64Value
        opts.singleUse = o["singleUse"]?.boolValue ?? false
        opts.tag = o["tag"]?.stringValue
        return opts
    }

    static func signedCase(_ c: JSONValue) throws -> String? {
        let key = try Secp256k1.PrivateKey(rawRepresentation: try hex(c, "creatorSecretKey"))
        let payloadHex = try str(c, "payload")
        if let conv = c["conversationId"]?.stringValue {
            let token = try ConversationToken.seal(conversationID: conv, creatorKey: key,
                                                   creatorId: key.publicKey.hex, nonce: try hex(c, "nonce"))
            let built = try SignedInvite.create(token: token, creator: key, options: options(c["options"]))
            if let p = expect("payload", Hex.encode(built.payloadBytes), payloadHex) { return p }
            if let p = expect("signature", Hex.encode(built.signature), try str(c, "signature")) { return p }
            let compress = c["compressed"]?.boolValue ?? true
            let ours = built.encodedSlug(compress: compress)
            if let slug = c["slug"]?.stringValue {
                // DEFLATE output depends on the compressor's settings, so compressed slugs are
                // compared by what they decode to and by their framing, not character by character.
                let a = try InviteSlug.decode(ours), b = try InviteSlug.decode(slug)
                if a.first == InviteCompression.marker || b.first == InviteCompression.marker {
                    if let p = expect("framing", Array(a.prefix(5)), Array(b.prefix(5))) { return p }
                    if let p = expect("inflated", try InviteCompression.decompress(a), try InviteCompression.decompress(b)) { return p }
                } else if let p = expect("slug", ours, slug) { return p }
            }
            if let url = c["url"]?.stringValue {
                let vectorSlug = try str(c, "slug")
                if let p = expect("url", url, try InviteLink.url(slug: vectorSlug, domain: try str(c, "domain"))) { return p }
                if let p = expect("link slug", try InviteLink.slug(from: url), vectorSlug) { return p }
            }
            if let p = expect("conversation id", try built.conversationID(creatorKey: key), conv) { return p }
        }
        let input = try c["url"]?.stringValue ?? str(c, "slug")
        let parsed = try SignedInvite(link: input)
        if let p = expect("decoded payload", Hex.encode(parsed.payloadBytes), payloadHex) { return p }
        return expect("creator", try parsed.verify().xOnly.hex, key.publicKey.hex)
    }

    static func negativeCase(_ c: JSONValue) throws -> String? {
        let want = try str(c, "error")
        let input = try str(c, "input")
        var got = "no error"
        do {
            switch try str(c, "kind") {
            case "whistle_code": _ = try InviteCode(code: input)
            case "whistle_url": _ = try InviteCode(url: input)
            case "approval_url": _ = try ApprovalURL(url: input)
            case "signed_link":
                let invite = try SignedInvite(link: input)
                let expected = try c["expectedCreator"]?.stringValue.map { try Secp256k1.XOnlyPublicKey(rawRepresentation: Hex.decode($0) ?? []) }
                let r = InviteValidator.validate(invite, context: InviteValidationContext(
                    now: c["now"]?.int64Value ?? 0, expectedCreator: expected, currentTag: c["currentTag"]?.stringValue))
                if let e = r.error { throw e }
            case "payload":
                do { _ = try InvitePayload(serializedBytes: Hex.decode(input) ?? []) } catch { got = error.code.rawValue; break }
            case "token":
                let key = try Secp256k1.PrivateKey(rawRepresentation: try hex(c, "creatorSecretKey"))
                _ = try ConversationToken.open(Hex.decode(input) ?? [], creatorKey: key, creatorId: try str(c, "creatorId"))
            default:
                return "unknown kind"
            }
        } catch let e as InviteError {
            got = e.code.rawValue
        }
        return expect("error", got, want)
    }
}
