import Foundation
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr

/// Runs `vectors/marmot/invite-links/invite-links-v1.json` (PROTOCOL §5.14), the synthetic
/// fixture of the proposed Marmot private group invite links v1 (`shared/marmot/v2/tests/README.md`):
/// one case per field group, each decoding the given bytes, re-encoding them exactly and checking
/// the hashes, signatures and ciphertext InviteKit computes against the fixture's.
package enum MarmotInviteLinkVectorSuites {
    static let file = "marmot/invite-links/invite-links-v1.json"
    static let suite = "marmot-invite-links"
    package static let cases = ["code hex to bech32m", "code bech32m to hex", "entry", "component", "request", "request sign content",
                        "refresh", "withdrawal", "preview", "status", "retired status", "grant record", "forward record"]

    package static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: suite, files: [file], minimumCases: cases.count),
    ]

    /// Replays fixed bytes as randomness (the fixture's preview nonce).
    struct FixedRandom: RandomSource {
        let bytes: [UInt8]
        func fill(_ buffer: UnsafeMutableRawBufferPointer) {
            precondition(buffer.count <= bytes.count, "fixed randomness exhausted")
            buffer.copyBytes(from: bytes.prefix(buffer.count))
        }
    }

    struct Fixture {
        let fields: [String: String]

        func hex(_ key: String) throws -> [UInt8] {
            guard let s = fields[key], let b = Hex.decode(s) else { throw NostrError(.malformedJSON, "\(key) is missing or not hex") }
            return b
        }

        func text(_ key: String) throws -> String {
            guard let s = fields[key] else { throw NostrError(.malformedJSON, "\(key) is missing") }
            return s
        }
    }

    static func differs(_ what: String, _ a: [UInt8], _ b: [UInt8]) -> String? { a == b ? nil : "\(what) differs" }

    package static func run(directory: String) -> [VectorSuiteResult] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + file),
              let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return [.unreadable(suite, "\(file) is missing or not a JSON object")]
        }
        let fields = o.compactMapValues { $0 as? String }
        guard fields.count >= 20 else { return [.unreadable(suite, "\(file) has \(fields.count) fields; the fixture has at least 20")] }
        let f = Fixture(fields: fields)
        var r = VectorSuiteResult(suite: suite)

        r.check("code hex to bech32m") {
            let code = try InviteCodeV1(decoding: try f.hex("code_hex"))
            if let d = differs("re-encoding", code.encoded, try f.hex("code_hex")) { return d }
            return code.bech32m == (try f.text("code_bech32m")) ? nil : "bech32m text differs"
        }
        r.check("code bech32m to hex") {
            let text = try f.text("code_bech32m")
            if let d = differs("decoded bytes", try InviteCodeV1(bech32m: text).encoded, try f.hex("code_hex")) { return d }
            return differs("uppercase form", try InviteCodeV1(bech32m: text.uppercased()).encoded, try f.hex("code_hex"))
        }
        r.check("entry") {
            let entry = try InviteLinkV1(decoding: try f.hex("entry_hex"))
            let code = try InviteCodeV1(decoding: try f.hex("code_hex"))
            if let d = differs("re-encoding", entry.encoded, try f.hex("entry_hex")) { return d }
            if entry.linkID != code.linkID || entry.inboxPublicKey != code.inboxPublicKey { return "entry does not name the code's id and inbox" }
            if entry.bearerHash != code.bearerHash { return "bearer_hash is not SHA-256 of the code's bearer" }
            return differs("preview_hash", entry.previewHash, try f.hex("preview_hash"))
        }
        r.check("component") {
            let state = try InviteLinksV1(decoding: try f.hex("component_hex"))
            let entry = try f.hex("entry_hex")
            if state.links.map(\.encoded) != [entry] { return "component does not hold exactly the entry" }
            return differs("re-encoding", state.encoded, try f.hex("component_hex"))
        }
        r.check("request") {
            let request = try InviteRequestV1(decoding: try f.hex("request_hex"))
            if let d = differs("re-encoding", request.encoded, try f.hex("request_hex")) { return d }
            if request.tbs.revision != 0 { return "revision \(request.tbs.revision)" }
            let code = try InviteCodeV1(decoding: try f.hex("code_hex"))
            if request.tbs.context.linkID != code.linkID || request.tbs.bearerHash != code.bearerHash { return "request does not bind the code" }
            return differs("request_hash", request.requestHash, try f.hex("request_hash"))
        }
        r.check("request sign content") {
            let request = try InviteRequestV1(decoding: try f.hex("request_hex"))
            let content = InviteConsentSignature.signContent(.request, content: request.tbs.encoded)
            if let d = differs("SignContent", content, try f.hex("request_sign_content_hex")) { return d }
            let key = try Ed25519.PrivateKey(rawRepresentation: try f.hex("consent_seed_hex"))
            if key.publicKey != request.tbs.context.consentKey { return "consent_key is not derived from consent_seed_hex" }
            try request.verifyConsent()
            return differs("signature", try InviteRequestV1(signing: request.tbs, consentKey: key).encoded, request.encoded)
        }
        r.check("refresh") {
            let request = try InviteRequestV1(decoding: try f.hex("request_hex"))
            let refresh = try InviteRequestV1(decoding: try f.hex("refresh_hex"))
            if let d = differs("re-encoding", refresh.encoded, try f.hex("refresh_hex")) { return d }
            try refresh.verifyRefresh(of: request)
            let key = try Ed25519.PrivateKey(rawRepresentation: try f.hex("consent_seed_hex"))
            return differs("signature", try InviteRequestV1(signing: refresh.tbs, consentKey: key).encoded, refresh.encoded)
        }
        r.check("withdrawal") {
            let withdrawal = try InviteWithdrawalV1(decoding: try f.hex("withdrawal_hex"))
            if let d = differs("re-encoding", withdrawal.encoded, try f.hex("withdrawal_hex")) { return d }
            try withdrawal.verifyConsent()
            let request = try InviteRequestV1(decoding: try f.hex("request_hex"))
            if withdrawal.context != request.tbs.context { return "withdrawal context is not the request's" }
            let key = try Ed25519.PrivateKey(rawRepresentation: try f.hex("consent_seed_hex"))
            return differs("signature", try InviteWithdrawalV1(signing: withdrawal.context, consentKey: key).encoded, withdrawal.encoded)
        }
        r.check("preview") {
            let preview = try InvitePreviewV1(decoding: try f.hex("preview_hex"))
            if let d = differs("re-encoding", preview.encoded, try f.hex("preview_hex")) { return d }
            if let d = differs("preview_hash", preview.previewHash, try f.hex("preview_hash")) { return d }
            let code = try InviteCodeV1(decoding: try f.hex("code_hex"))
            if let d = differs("preview key", code.previewKey.exportBytes(), try f.hex("preview_key_hex")) { return d }
            if let d = differs("AAD", InvitePreviewV1.associatedData(inboxPublicKey: code.inboxPublicKey, linkID: code.linkID),
                               try f.hex("preview_aad_hex")) { return d }
            let nonce = try f.hex("preview_nonce_hex"), ciphertext = try f.hex("preview_ciphertext_hex")
            let opened = try InvitePreviewV1.open(nonce: nonce, ciphertext: ciphertext, code: code)
            if let d = differs("decrypted plaintext", opened.encoded, try f.hex("preview_hex")) { return d }
            let sealed = try preview.seal(previewKey: code.previewKey, random: FixedRandom(bytes: nonce))
            if let d = differs("re-encryption", sealed.nonce + sealed.ciphertext, nonce + ciphertext) { return d }
            let content = try preview.descriptorContent(previewKey: code.previewKey, random: FixedRandom(bytes: nonce))
            return differs("descriptor round trip", try InvitePreviewV1.open(descriptorContent: content, code: code).encoded, preview.encoded)
        }
        r.check("status") {
            let status = try InviteStatusV1(decoding: try f.hex("status_hex"))
            if let d = differs("re-encoding", status.encoded, try f.hex("status_hex")) { return d }
            if status.outcome != .invited { return "outcome \(status.outcome)" }
            return differs("request_hash", status.requestHash, try f.hex("request_hash"))
        }
        r.check("retired status") {
            let status = try InviteStatusV1(decoding: try f.hex("retired_status_hex"))
            if let d = differs("re-encoding", status.encoded, try f.hex("retired_status_hex")) { return d }
            if status.outcome != .retired { return "outcome \(status.outcome)" }
            return differs("request_hash", status.requestHash, try f.hex("request_hash"))
        }
        r.check("grant record") {
            let record = try InviteAdminRecordV1(decoding: try f.hex("grant_record_hex"))
            if let d = differs("re-encoding", record.encoded, try f.hex("grant_record_hex")) { return d }
            guard case .grant(let entry, _, let code) = record.action else { return "action \(record.action.rawValue)" }
            if let d = differs("granted entry", entry.encoded, try f.hex("entry_hex")) { return d }
            return differs("granted code", code.encoded, try f.hex("code_hex"))
        }
        r.check("forward record") {
            let record = try InviteAdminRecordV1(decoding: try f.hex("forward_record_hex"))
            if let d = differs("re-encoding", record.encoded, try f.hex("forward_record_hex")) { return d }
            guard case .forwardRequest(let request, _) = record.action else { return "action \(record.action.rawValue)" }
            try request.verifyConsent()
            return differs("forwarded request", request.encoded, try f.hex("request_hex"))
        }
        return [r]
    }
}
