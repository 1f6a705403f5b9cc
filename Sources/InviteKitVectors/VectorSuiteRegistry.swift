import Foundation
import InviteKitNostr

/// Every vector suite, layer by layer, each with the files it reads and the
/// fewest cases it must run. A suite passes only when it earned it (PROTOCOL.md
/// §10): a declared file that is missing, empty or not parseable, a suite that did not
/// run or ran fewer cases than declared, and a suite nobody declared are all failures.
package enum VectorSuiteRegistry {
    /// Every declaration, family by family; adding a suite means declaring it with its runner.
    package static let declarations: [VectorSuiteDeclaration] = NostrVectorSuites.declarations + InviteVectorSuites.declarations
        + MLSVectorSuites.declarations + ContentVectorSuites.declarations + MarmotInteropVectorSuites.declarations + MarmotCurrentVectorSuites.declarations
            + MarmotConformanceVectorSuites.declarations + MarmotInviteLinkVectorSuites.declarations

    /// Runs every suite and holds each to its declaration.
    package static func run(directory: String) async -> [VectorSuiteResult] {
        let conformance = await MarmotConformanceVectorSuites.run(directory: directory)
        let ran = NostrVectorSuites.run(directory: directory)
            + InviteVectorSuites.run(directory: directory)
            + MLSVectorSuites.results(directory: directory)
            + ContentVectorSuites.run(directory: directory)
            + MarmotInteropVectorSuites.run(directory: directory) + MarmotCurrentVectorSuites.run(directory: directory)
                + conformance + MarmotInviteLinkVectorSuites.run(directory: directory)
        return enforce(ran, directory: directory, declarations: declarations) + [inventory(directory: directory, declarations: declarations)]
    }

    /// The reference-only list: `vectors/SOURCES.md`.
    package static let referenceList = "SOURCES.md"

    /// The `vectors-inventory` result: one case per file under `directory`. A file passes when a
    /// declared suite reads it, or when `SOURCES.md` lists it as reference-only (a line
    /// `` - `path` — reason ``); any other file fails, so a vector nobody checks cannot sit
    /// there looking verified. A listed file that does not exist fails too.
    package static func inventory(directory: String, declarations: [VectorSuiteDeclaration]) -> VectorSuiteResult {
        var r = VectorSuiteResult(suite: "vectors-inventory")
        let declared = Set(declarations.flatMap(\.files))
        let reference = referenceOnly(directory: directory)
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return .unreadable(r.suite, "cannot list \(directory)") }
        var found = Set<String>()
        for case let relative as String in walker {
            var st = stat()
            guard lstat(directory + "/" + relative, &st) == 0, st.st_mode & S_IFMT != S_IFDIR else { continue }
            found.insert(relative)
        }
        for relative in found.sorted() {
            if relative == referenceList { continue }
            r.record(relative, declared.contains(relative) || reference[relative] != nil
                     ? nil : "belongs to no declared suite and is not listed as reference-only in \(referenceList)")
        }
        for relative in reference.keys.sorted() where !found.contains(relative) {
            r.record(relative, "listed in \(referenceList) but missing")
        }
        return r
    }

    /// `path → reason` for every `` - `path` — reason `` line of `SOURCES.md`.
    static func referenceOnly(directory: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + referenceList) else { return [:] }
        var out = [String: String]()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("- `"), let end = t.dropFirst(3).firstIndex(of: "`") else { continue }
            let path = String(t[t.index(t.startIndex, offsetBy: 3)..<end])
            let reason = t[t.index(after: end)...].trimmingCharacters(in: CharacterSet(charactersIn: " —-:"))
            if !path.isEmpty && !reason.isEmpty { out[path] = reason }
        }
        return out
    }

    /// Holds `results` to `declarations`, in declaration order, undeclared suites last.
    package static func enforce(_ results: [VectorSuiteResult], directory: String, declarations: [VectorSuiteDeclaration]) -> [VectorSuiteResult] {
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
                                         failures: ["\(r.suite): not declared in its family's `declarations` (files and minimum case count)"] + r.failures))
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
