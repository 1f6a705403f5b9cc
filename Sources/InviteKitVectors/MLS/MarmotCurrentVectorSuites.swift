import Foundation
import InviteKit
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr

/// Runs `vectors/marmot/current/` (PROTOCOL §5.12): the spec's account identity proof vector,
/// MDK 0.9.14's routing byte fixtures and its current-profile required set, checked against
/// what InviteKit builds.
public enum MarmotCurrentVectorSuites {
    static let folder = "marmot/current/"
    static let routing = ["nostr-routing-v1-valid-state.v1.json", "nostr-routing-v1-valid-update.v1.json",
                          "nostr-routing-v1-invalid-duplicate-relay.v1.json"]
    static let requiredSet = "mdk-0.9.14/current-profile-required-set.v1.json"
    static let proof = "account-identity-proof.json"

    public static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: "marmot-current", files: [folder + proof, folder + requiredSet] + routing.map { folder + "mdk-0.9.14/" + $0 },
                               minimumCases: 2 + routing.count),
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

    public static func run(directory: String) -> [VectorSuiteResult] {
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
        return [r]
    }
}
