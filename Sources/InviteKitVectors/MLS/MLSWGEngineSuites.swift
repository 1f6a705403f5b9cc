import InviteKitMLS
import Foundation
import InviteKitNostr
import InviteKitCrypto

/// The mlswg interop suites the group engine answers for, read from `external/mls/` under a
/// `vectors/` directory (each suite absent from the result when its file is missing):
/// - `mlswg-messages`: every message of `messages.json` parses and re-serializes byte-exact.
/// - `mlswg-welcome`: `welcome.json`, suites 1 and 3: GroupSecrets and GroupInfo decrypt, the
///   GroupInfo signature and confirmation tag verify (RFC 9420 §12.4.3.1).
/// - `mlswg-passive-client-*`: suites 1 and 3: a passive member joins from the Welcome and follows
///   every commit, matching each epoch authenticator; cases that need a feature outside the
///   Marmot profile are skipped with that reason.
package enum MLSWGEngineSuites {
    package static func run(directory: URL) -> [VectorSuiteResult] {
        let dir = directory.appendingPathComponent("external/mls")
        var out: [VectorSuiteResult] = []
        if let j = load(dir, "messages.json") { out.append(messages(j)) }
        if let j = load(dir, "welcome.json") { out.append(welcome(j)) }
        for name in ["passive-client-welcome", "passive-client-handling-commit", "passive-client-random"] {
            if let j = load(dir, name + ".json") { out.append(passiveClient(j, suite: "mlswg-" + name)) }
        }
        return out
    }

    static func load(_ dir: URL, _ name: String) -> [[String: Any]]? {
        guard let data = try? Data(contentsOf: dir.appendingPathComponent(name)) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
    }

    static func hex(_ any: Any?) -> [UInt8]? {
        guard let s = any as? String else { return nil }
        return Hex.decode(s)
    }

    /// Parses `bytes` as `T` and re-serializes; nil when byte-exact.
    static func roundTrip<T: TLSCodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> String? {
        let value = try T(tlsSerialized: bytes)
        return value.tlsSerialized == bytes ? nil : "re-serialization differs"
    }

    // MARK: messages

    static func messages(_ entries: [[String: Any]]) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "mlswg-messages")
        let proposals: [(String, Proposal.ProposalType)] = [
            ("add_proposal", .add), ("update_proposal", .update), ("remove_proposal", .remove),
            ("pre_shared_key_proposal", .psk), ("re_init_proposal", .reinit), ("external_init_proposal", .externalInit),
            ("group_context_extensions_proposal", .groupContextExtensions),
        ]
        for (i, e) in entries.enumerated() {
            func field(_ key: String, _ body: ([UInt8]) throws -> String?) {
                r.check("\(i).\(key)") {
                    guard let bytes = hex(e[key]) else { return "missing" }
                    return try body(bytes)
                }
            }
            for key in ["mls_welcome", "mls_group_info", "mls_key_package", "public_message_application", "public_message_proposal",
                        "public_message_commit", "private_message"] {
                field(key) { try roundTrip(MLSMessage.self, $0) ?? framedBodyCheck(key, $0) }
            }
            field("ratchet_tree") { try roundTrip(RatchetTreeExtension.self, $0) }
            field("group_secrets") { try roundTrip(GroupSecrets.self, $0) }
            field("commit") { try roundTrip(Commit.self, $0) }
            for (key, type) in proposals {
                field(key) { bytes in
                    let p = try Proposal.parseBody(type, bytes)
                    return p.bodyBytes == bytes ? nil : "re-serialization differs"
                }
            }
        }
        return r
    }

    /// Checks that a framed message's body has the wire format its field name says.
    static func framedBodyCheck(_ key: String, _ bytes: [UInt8]) throws -> String? {
        let msg = try MLSMessage(tlsSerialized: bytes)
        let want: MLSMessage.WireFormat
        switch key {
        case "mls_welcome": want = .welcome
        case "mls_group_info": want = .groupInfo
        case "mls_key_package": want = .keyPackage
        case "private_message": want = .privateMessage
        default: want = .publicMessage
        }
        return msg.wireFormat == want ? nil : "wire_format \(msg.wireFormat.rawValue)"
    }
}
