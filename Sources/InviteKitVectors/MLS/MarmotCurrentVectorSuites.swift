import Foundation
import InviteKit
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr

/// Runs `vectors/marmot/current/` (PROTOCOL §5.12): the spec's account identity proof vector,
/// MDK 0.9.14's routing byte fixtures and its current-profile required set, checked against
/// what InviteKit builds.
package enum MarmotCurrentVectorSuites {
    static let folder = "marmot/current/"
    static let routing = ["nostr-routing-v1-valid-state.v1.json", "nostr-routing-v1-valid-update.v1.json",
                          "nostr-routing-v1-invalid-duplicate-relay.v1.json"]
    static let requiredSet = "mdk-0.9.14/current-profile-required-set.v1.json"
    static let proof = "account-identity-proof.json"
    static let components = "components.json"
    static let events = "events.json"

    package static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: "marmot-current", files: [folder + proof, folder + requiredSet] + routing.map { folder + "mdk-0.9.14/" + $0 },
                               minimumCases: 2 + routing.count),
        VectorSuiteDeclaration(suite: "marmot-current-components", files: [folder + components], minimumCases: 40),
        VectorSuiteDeclaration(suite: "marmot-current-events", files: [folder + events], minimumCases: 4),
    ]

    static func object(_ directory: String, _ name: String) throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + folder + name),
              let o = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NostrError(.malformedJSON, "\(name): missing or not a JSON object")
        }
        return o
    }

    static func bytes(_ o: [String: Any], _ key: String) throws -> [UInt8] {
        guard let s = o[key] as? String, let b = Hex.decode(s.hasPrefix("0x") ? String(s.dropFirst(2)) : s) else {
            throw NostrError(.malformedJSON, "\(key) is not hex")
        }
        return b
    }

    package static func run(directory: String) -> [VectorSuiteResult] {
        var r = VectorSuiteResult(suite: "marmot-current")
        r.check(proof) {
            let o = try object(directory, proof)
            let account = try Secp256k1.PrivateKey(rawRepresentation: try bytes(o, "secret_key"))
            guard let createdAt = o["created_at"] as? Int else { return "created_at" }
            let made = try AccountIdentityProof.make(account: account, signatureKey: try bytes(o, "mls_signature_key"),
                                                     createdAt: UInt64(createdAt), auxiliaryRandomness: try bytes(o, "aux_rand"))
            let id = AccountIdentityProof.signingEventID(signer: made.signer, createdAt: UInt64(createdAt), cipherSuite: 1,
                                                         signatureScheme: 0x0807, signatureKey: try bytes(o, "mls_signature_key"))
            if id != (try bytes(o, "event_id")) { return "event id differs" }
            if made.encoded != (try bytes(o, "component")) { return "component bytes differ" }
            let read = try AccountIdentityProof(decoding: try bytes(o, "component"))
            return read.signature == (try bytes(o, "signature")) ? nil : "signature differs"
        }
        for name in routing {
            r.check(name) {
                let o = try object(directory, "mdk-0.9.14/" + name)
                guard let b = o["bytes"] as? [String: Any], let e = o["expected"] as? [String: Any], let valid = e["valid"] as? Bool else {
                    return "fixture shape"
                }
                let data = try bytes(b, "hex")
                let decoded = try? NostrRoutingV1(decoding: data)
                if valid != (decoded != nil) { return valid ? "valid fixture refused" : "invalid fixture accepted" }
                if let decoded, decoded.encoded != data { return "re-encoding differs" }
                return nil
            }
        }
        r.check(requiredSet) {
            let o = try object(directory, requiredSet)
            guard let p = o["application_profile"] as? [String: Any], let required = p["required_app_components"] as? [String],
                  let leafOnly = p["leaf_only_app_components"] as? [String] else { return "fixture shape" }
            // A group InviteKit creates must meet MDK's required set.
            let bundle = try KeyPackageEvent.create(nostrKey: Secp256k1.PrivateKey(), relays: [], lastResort: false).bundle
            let group = try MarmotMLSGroup.create(creator: bundle, name: "required-set", relays: ["wss://relay.example"])
            let ids = group.groupData.requiredComponents.ids.map(ComponentID.hex)
            if let missing = required.first(where: { !ids.contains($0) }) { return "new group does not require \(missing)" }
            let dictionary = try AppDataDictionary(extensions: group.state.groupContextExtensions)
            for id in leafOnly {
                guard let v = UInt16(id.dropFirst(2), radix: 16) else { return "id \(id)" }
                if dictionary?[v] != nil { return "leaf-only \(id) in the GroupContext" }
            }
            return nil
        }
        return [r, runComponents(directory), runEvents(directory)]
    }

    /// One component's bytes: valid ones decode and re-encode to the same bytes; invalid ones
    /// are refused.
    static func roundTrip(_ id: UInt16, _ kind: String, _ data: [UInt8]) throws -> [UInt8] {
        switch (id, kind) {
        case (ComponentID.appComponents, _): return try ComponentsList(decoding: data).encoded
        case (ComponentID.groupProfile, _): return try GroupProfileV1(decoding: data).encoded
        case (ComponentID.blossomImage, _): return BlossomImageV1.encode(try BlossomImageV1.decode(data))
        case (ComponentID.adminPolicy, _): return try AdminPolicyV1(decoding: data).encoded
        case (ComponentID.nostrRouting, _): return try NostrRoutingV1(decoding: data).encoded
        case (ComponentID.messageRetention, _): return try MessageRetentionV1(decoding: data).encoded
        case (ComponentID.agentTextStream, _): return try AgentTextStreamPolicyV1(decoding: data).encoded
        case (ComponentID.encryptedMediaV2, _): return try EncryptedMediaPolicyV2(decoding: data).encoded
        case (ComponentID.lifecycle, _): return try GroupLifecycleV1(decoding: data).encoded
        case (ComponentID.accountIdentityProof, _): return try AccountIdentityProof(decoding: data).encoded
        default: throw NostrError(.malformedJSON, "no reader for component \(ComponentID.hex(id))")
        }
    }

    static func runComponents(_ directory: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "marmot-current-components")
        guard let o = try? object(directory, components), let cases = o["components"] as? [[String: Any]],
              let proposals = o["app_data_update_proposals"] as? [[String: Any]], let dictionaries = o["app_data_dictionaries"] as? [[String: Any]] else {
            r.check(components) { "missing or malformed" }
            return r
        }
        func expect(_ name: String, _ c: [String: Any], _ body: ([UInt8]) throws -> [UInt8]) {
            r.check(name) {
                guard let valid = c["valid"] as? Bool else { return "no valid flag" }
                let data = try bytes(c, "hex")
                do {
                    let back = try body(data)
                    if !valid { return "accepted an invalid case" }
                    return back == data ? nil : "re-encoding differs"
                } catch let e as MLSError {
                    return valid ? "refused: \(e)" : nil
                }
            }
        }
        for (i, c) in cases.enumerated() {
            guard let idText = c["component"] as? String, let id = UInt16(idText.dropFirst(2), radix: 16), let kind = c["kind"] as? String else {
                r.check("component \(i)") { "malformed case" }
                continue
            }
            expect("\(idText) \(kind) \(c["note"] as? String ?? "\(i)")", c) { try roundTrip(id, kind, $0) }
        }
        for (i, c) in proposals.enumerated() {
            expect("AppDataUpdate \(c["note"] as? String ?? "\(i)")", c) { try Proposal(tlsSerialized: $0).tlsSerialized }
        }
        for (i, c) in dictionaries.enumerated() {
            expect("app_data_dictionary \(c["note"] as? String ?? "\(i)")", c) { try AppDataDictionary(decoding: $0).encoded }
        }
        r.check("required_capabilities") {
            Hex.encode(MarmotProfile.currentRequiredCapabilities().tlsSerialized) == (o["required_capabilities_extension"] as? String)
                ? nil : "differs from a new group's"
        }
        return r
    }

    /// A current-profile KeyPackage event, Welcome rumor and kind-445 events InviteKit made
    /// (regenerated by `MarmotCurrentVectorFileTests` with a fixed seed): each passes the reader and
    /// has exactly the tags the profile names.
    static func runEvents(_ directory: String) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "marmot-current-events")
        func event(_ key: String) throws -> NostrEvent {
            let o = try object(directory, events)
            guard let e = o[key] as? [String: Any] else { throw NostrError(.malformedJSON, "no \(key)") }
            let data = try JSONSerialization.data(withJSONObject: e)
            return try NostrEvent(json: String(decoding: data, as: UTF8.self), requireSignature: key != "welcome_rumor")
        }
        func now() throws -> Int64 {
            guard let n = (try object(directory, events))["now"] as? Int else { throw NostrError(.malformedJSON, "no now") }
            return Int64(n)
        }
        r.check("keypackage_event") {
            let e = try event("keypackage_event")
            let v = try KeyPackageValidator.validate(e, now: try now())
            guard v.keyPackage.profile == .current else { return "not a current-profile KeyPackage" }
            let expected = try KeyPackageEvent.currentTags(for: v.keyPackage, d: e.firstTagValue("d") ?? "")
            return e.tags == expected ? nil : "tags differ from the decoded package's"
        }
        r.check("welcome_rumor") {
            let e = try event("welcome_rumor")
            _ = try MarmotWelcomeRumor.parse(e)
            return e.tags.map { $0.first ?? "" } == ["e", "relays"] ? nil : "tags are not exactly e and relays"
        }
        r.check("group_event") {
            let e = try event("group_event")
            _ = try MarmotGroupEvent.envelope(e, profile: .current, now: try now())
            return e.tags.count == 1 && e.tags[0].first == "h" ? nil : "tags are not exactly one h"
        }
        r.check("group_event_mip_form refused") {
            let e = try event("group_event_mip_form")
            do { _ = try MarmotGroupEvent.envelope(e, profile: .current, now: try now()) } catch let err as MLSError where err.code == .invalidEvent {
                return nil
            }
            return "the MIP form (encoding tag) was accepted in the current profile"
        }
        return r
    }
}

