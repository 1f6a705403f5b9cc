import Foundation
import InviteKitNostr

/// Runs `vectors/marmot/mdk-0.8.0/`: events MDK 0.8.0 (the Rust reference implementation of
/// Marmot, MIP-00..03) produced, and events InviteKit produced for MDK to read. Each file must
/// be one Nostr event (NIP-01) of the kind its name carries. The MLS tests read the same files
/// in depth (KeyPackage validation, Welcome and group-message decoding); this suite makes
/// `vectors verify` notice a file that went missing or was damaged.
package enum MarmotInteropVectorSuites {
    /// The files, each with its event kind.
    static let files: [(name: String, kind: Int)] = [
        ("commit_445.json", 445),
        ("group_message_445.json", 445),
        ("invitekit_keypackage_30443.json", 30443),
        ("mdk_keypackage_30443.json", 30443),
        ("mdk_keypackage_443_legacy.json", 443),
        ("welcome_giftwrap_1059_to_invitekit_member.json", 1059),
        ("welcome_rumor_444_invitekit_member.json", 444),
        ("welcome_rumor_444_mdk_member.json", 444),
    ]
    static let folder = "marmot/mdk-0.8.0/"

    /// The files these suites read and the fewest cases each must run (`VectorSuiteRegistry`).
    package static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: "marmot-mdk-0.8.0", files: files.map { folder + $0.name }, minimumCases: files.count),
    ]

    package static func run(directory: String) -> [VectorSuiteResult] {
        var r = VectorSuiteResult(suite: "marmot-mdk-0.8.0")
        for file in files {
            r.check(file.name) {
                guard let data = FileManager.default.contents(atPath: directory + "/" + folder + file.name) else { return "missing" }
                // Rumors (kind 444) are unsigned by design (NIP-59); the signed events are checked.
                let event = try NostrEvent(json: String(decoding: data, as: UTF8.self), requireSignature: file.kind != 444)
                return event.kind == file.kind ? nil : "kind \(event.kind), expected \(file.kind)"
            }
        }
        return [r]
    }
}
