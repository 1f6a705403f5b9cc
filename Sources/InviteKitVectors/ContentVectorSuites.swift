import Foundation
import InviteKitCrypto
import InviteKitNostr
import InviteKit

/// Runs vectors/content/content-types.json and vectors/sealed/sealed-kinds.json.
package enum ContentVectorSuites {
    /// The files these suites read and the fewest cases each must run (`VectorSuiteRegistry`).
    package static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: "content-types", files: ["content/content-types.json"], minimumCases: 27),
        VectorSuiteDeclaration(suite: "sealed-kinds", files: ["sealed/sealed-kinds.json"], minimumCases: 7),
    ]

    package static func run(directory: String) -> [VectorSuiteResult] {
        [content(directory), sealed(directory)]
    }

    static func content(_ dir: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "content-types")
        guard let v = try? VectorFile.load(dir, "content/content-types.json") else { return .unreadable(r.suite, "missing or malformed file") }
        for c in v["encoded_content"]?.arrayValue ?? [] {
            r.check("encoded_content: \(c["name"]?.stringValue ?? "?")") {
                let type = try ContentTypeID(parsing: c["type"]?.stringValue ?? "")
                var params = [String: String]()
                for m in c["parameters"]?.objectValue ?? [] { params[m.key] = m.value.stringValue }
                let compression = c["compression"]?.int64Value.flatMap { EncodedContent.Compression(rawValue: UInt64($0)) }
                let e = EncodedContent(type: type, parameters: params, fallback: c["fallback"]?.stringValue,
                                       content: Hex.decode(c["content_hex"]?.stringValue ?? "") ?? [], compression: compression)
                let want = c["serialized_hex"]?.stringValue ?? ""
                if Hex.encode(e.serialized()) != want { return "serialization differs" }
                return try EncodedContent(serialized: Hex.decode(want) ?? []) == e ? nil : "parse differs"
            }
        }
        for c in v["encoded_content_invalid"]?.arrayValue ?? [] {
            r.check("encoded_content_invalid: \(c["name"]?.stringValue ?? "?")") {
                do { _ = try EncodedContent(serialized: Hex.decode(c["serialized_hex"]?.stringValue ?? "") ?? []); return "accepted" } catch let e as ContentTypeError {
                    return e.code.rawValue == c["error"]?.stringValue ? nil : "got \(e.code.rawValue)"
                }
            }
        }
        for c in v["content_type_ids"]?.arrayValue ?? [] {
            let text = c["text"]?.stringValue ?? ""
            r.check("content_type_id: \(text)") {
                let parsed = try? ContentTypeID(parsing: text)
                guard c["valid"]?.boolValue == true else { return parsed == nil ? nil : "accepted" }
                guard let parsed else { return "rejected" }
                let ok = parsed.authorityID == c["authority"]?.stringValue && parsed.typeID == c["type"]?.stringValue
                    && Int64(parsed.versionMajor) == c["major"]?.int64Value && Int64(parsed.versionMinor) == c["minor"]?.int64Value
                    && parsed.description == text
                return ok ? nil : "fields differ"
            }
        }
        let codec = InviteJoinErrorCodec()
        for c in v["invite_join_error"]?.arrayValue ?? [] {
            r.check("invite_join_error: \(c["name"]?.stringValue ?? "?")") {
                let encoded = EncodedContent(type: .inviteJoinError, content: Array((c["json"]?.stringValue ?? "").utf8))
                guard c["valid"]?.boolValue == true else {
                    do { _ = try codec.decode(encoded); return "accepted" } catch let e as ContentTypeError {
                        return e.code.rawValue == c["error"]?.stringValue ? nil : "got \(e.code.rawValue)"
                    }
                }
                let d = try codec.decode(encoded)
                let ok = d.errorType.rawValue == c["errorType"]?.stringValue && d.inviteTag == c["inviteTag"]?.stringValue
                    && abs(d.timestamp.timeIntervalSince1970 - (c["timestamp_unix"]?.doubleValue ?? 0)) < 0.001
                    && d.reason == c["reason"]?.stringValue && d.userFacingMessage == c["user_message"]?.stringValue
                return ok ? nil : "decoded fields differ"
            }
        }
        return r.passed + r.failed == 0 ? .unreadable(r.suite, "no cases") : r
    }

    static func sealed(_ dir: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "sealed-kinds")
        guard let v = try? VectorFile.load(dir, "sealed/sealed-kinds.json"),
              let key = try? Secp256k1.PrivateKey(rawRepresentation: Hex.decode(v["recipient_secret_key"]?.stringValue ?? "") ?? []) else {
            return .unreadable(r.suite, "missing or malformed file")
        }
        for c in v["cases"]?.arrayValue ?? [] {
            r.check(c["name"]?.stringValue ?? "?") {
                guard let w = c["wrap"] else { return "no wrap" }
                let gift = try GiftWrap.unwrap(try NostrEvent(jsonValue: w), recipient: key)
                let expect = c["expect"]?.stringValue ?? ""
                let message: SealedMessage
                do { message = try SealedMessage(layerGift: gift) } catch let e as SealedMessageError {
                    return expect == "error:\(e.code.rawValue)" ? nil : "got error \(e.code.rawValue)"
                }
                switch message {
                case .joinRequest(let j): return expect == "join_request" && j.groupId == c["group_id"]?.stringValue ? nil : "got join_request"
                case .inviteJoinError(let e):
                    return expect == "invite_join_error" && e.errorType.rawValue == c["error_type"]?.stringValue
                        && e.inviteTag == c["invite_tag"]?.stringValue ? nil : "got invite_join_error"
                case .welcome: return expect == "welcome" ? nil : "got welcome"
                case .other: return expect == "other" ? nil : "got other"
                }
            }
        }
        return r.passed + r.failed == 0 ? .unreadable(r.suite, "no cases") : r
    }
}
