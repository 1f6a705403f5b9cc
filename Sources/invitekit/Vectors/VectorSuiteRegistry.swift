import Foundation
import InviteKit
import InviteKitVectors

/// Every vector suite the CLI knows, layer by layer, each with the files it reads and the
/// fewest cases it must run. A suite passes only when it earned it (PROTOCOL.md, "Test
/// vectors"): a declared file that is missing, empty or not parseable, a suite that did not
/// run or ran fewer cases than declared, and a suite nobody declared are all failures.
enum VectorSuiteRegistry {
    struct Declaration {
        let suite: String
        /// Paths relative to the vectors directory.
        let files: [String]
        let minimumCases: Int
    }

    /// Adding a suite means adding its line here; `vectors verify` fails until it is declared.
    static let declarations: [Declaration] = [
        Declaration(suite: "bip340", files: ["external/bip340-test-vectors.csv"], minimumCases: 19),
        Declaration(suite: "nip19", files: ["external/nip19-examples.json"], minimumCases: 14),
        Declaration(suite: "nip44", files: ["external/nip44.vectors.json"], minimumCases: 128),
        Declaration(suite: "nip59", files: ["external/nip59-example.json"], minimumCases: 1),
        Declaration(suite: "invites.whistle_codes", files: ["invites/whistle-codes.json"], minimumCases: 13),
        Declaration(suite: "invites.approval_urls", files: ["invites/approval-urls.json"], minimumCases: 6),
        Declaration(suite: "invites.conversation_tokens", files: ["invites/conversation-tokens.json"], minimumCases: 7),
        Declaration(suite: "invites.signed_invites", files: ["invites/signed-invites.json"], minimumCases: 12),
        Declaration(suite: "invites.negative", files: ["invites/negative.json"], minimumCases: 58),
        Declaration(suite: "mls-key-packages", files: ["external/mls-key-packages.json"], minimumCases: 300),
        Declaration(suite: "mls-deserialization", files: ["external/mls-deserialization.json"], minimumCases: 14),
        Declaration(suite: "mls-crypto-basics", files: ["external/mls-crypto-basics.json"], minimumCases: 16),
        Declaration(suite: "mlswg-tree-math", files: ["external/mls/tree-math.json"], minimumCases: 10),
        Declaration(suite: "mlswg-tree-operations", files: ["external/mls/tree-operations.json"], minimumCases: 5),
        Declaration(suite: "mlswg-tree-validation", files: ["external/mls/tree-validation.json"], minimumCases: 28),
        Declaration(suite: "mlswg-treekem", files: ["external/mls/treekem.json"], minimumCases: 22),
        Declaration(suite: "mlswg-key-schedule", files: ["external/mls/key-schedule.json"], minimumCases: 10),
        Declaration(suite: "mlswg-secret-tree", files: ["external/mls/secret-tree.json"], minimumCases: 6),
        Declaration(suite: "mlswg-message-protection", files: ["external/mls/message-protection.json"], minimumCases: 2),
        Declaration(suite: "mlswg-transcript-hashes", files: ["external/mls/transcript-hashes.json"], minimumCases: 2),
        Declaration(suite: "mlswg-messages", files: ["external/mls/messages.json"], minimumCases: 5100),
        Declaration(suite: "mlswg-welcome", files: ["external/mls/welcome.json"], minimumCases: 2),
        Declaration(suite: "mlswg-passive-client-welcome", files: ["external/mls/passive-client-welcome.json"], minimumCases: 16),
        Declaration(suite: "mlswg-passive-client-handling-commit", files: ["external/mls/passive-client-handling-commit.json"], minimumCases: 14),
        Declaration(suite: "mlswg-passive-client-random", files: ["external/mls/passive-client-random.json"], minimumCases: 1),
        Declaration(suite: "content-types", files: ["content/content-types.json"], minimumCases: 27),
        Declaration(suite: "sealed-kinds", files: ["sealed/sealed-kinds.json"], minimumCases: 7),
    ]

    static func run(directory: String) -> [VectorSuiteResult] {
        let ran = NostrVectorSuites.run(directory: directory)
            + InviteVectorSuites.run(directory: directory)
            + MLSVectorSuites.results(directory: directory)
            + ContentVectorSuites.run(directory: directory)
        return enforce(ran, directory: directory, declarations: declarations)
    }

    /// Holds `results` to `declarations`, in declaration order, undeclared suites last.
    static func enforce(_ results: [VectorSuiteResult], directory: String, declarations: [Declaration]) -> [VectorSuiteResult] {
        var out = [VectorSuiteResult]()
        for d in declarations {
            let matching = results.filter { $0.suite == d.suite }
            var r = matching.first ?? VectorSuiteResult(suite: d.suite)
            var problems = d.files.compactMap { fileProblem(directory, $0) }
            if matching.isEmpty { problems.append("the suite did not run") }
            let cases = r.passed + r.failed
            if !matching.isEmpty, cases < d.minimumCases { problems.append("ran \(cases) cases; at least \(d.minimumCases) are declared") }
            if !problems.isEmpty {
                r = VectorSuiteResult(suite: r.suite, passed: r.passed, failed: r.failed + 1, failures: problems.map { "\(d.suite): \($0)" } + r.failures)
            }
            out.append(r)
        }
        let declared = Set(declarations.map(\.suite))
        for r in results where !declared.contains(r.suite) {
            out.append(VectorSuiteResult(suite: r.suite, passed: r.passed, failed: r.failed + 1,
                                         failures: ["\(r.suite): not declared in VectorSuiteRegistry.declarations (its files and minimum case count)"] + r.failures))
        }
        return out
    }

    /// Why a declared file cannot count: missing, not a regular file, empty, or (for JSON) not
    /// parseable or an empty object or array.
    static func fileProblem(_ directory: String, _ relative: String) -> String? {
        let path = directory + "/" + relative
        var st = stat()
        guard stat(path, &st) == 0 else { return "\(relative) is missing" }
        guard st.st_mode & S_IFMT == S_IFREG else { return "\(relative) is not a regular file" }
        guard st.st_size > 0, let bytes = FileManager.default.contents(atPath: path), !bytes.isEmpty else { return "\(relative) is empty" }
        guard relative.hasSuffix(".json") else { return nil }
        guard let value = try? JSONParser.parse(Array(bytes), maxBytes: 64 * 1024 * 1024, maxDepth: 64) else { return "\(relative) is not valid JSON" }
        switch value {
        case .object(let members) where members.isEmpty: return "\(relative) is an empty object"
        case .array(let items) where items.isEmpty: return "\(relative) is an empty array"
        default: return nil
        }
    }
}
