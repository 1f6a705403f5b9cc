import Foundation
import InviteKitConformance

/// Runs `vectors/marmot/conformance/` (PROTOCOL §5.13): MDK 0.9.14's portable scenario vectors
/// and incident replays through ``ConformanceRunner``, and the spec's branch-selector cases
/// through ``PolicyCaseRunner``. The scenario list is the manifest's `portable` scenario
/// vectors, so a scenario added there and not here fails the count.
package enum MarmotConformanceVectorSuites {
    static let folder = "marmot/conformance/"
    static let manifest = "manifest.v1.json"
    static let policyCases = "policy_cases.json"
    static let incidents = ["incidents/convergence-incident.v1.json", "incidents/fork-recovery-incident.v1.json",
                            "incidents/membership-fork-recovery-incident.v1.json"]
    /// The manifest's portable scenario vectors stored here (the suite checks the two lists agree).
    static let scenarios = [
        "three-client-message-exchange.v1.json",
        "publish-fail.v1.json",
        "invite-member.v1.json",
        "invite-publish-fail.v1.json",
        "group-data-update.v1.json",
        "group-profile-update.v1.json",
        "admin-policy-update.v1.json",
        "group-data-fork-recovery.v1.json",
        "concurrent-invite-fork-recovery.v1.json",
        "cross-route-own-commit-recovery.v1.json",
        "convergence-committer-selected.v1.json",
        "convergence-witness-selected.v1.json",
        "drop-queued.v1.json",
        "queue-faults.v1.json",
        "partition-clear-leave.v1.json",
        "delayed-past-epoch-app-message.v1.json",
        "restart-delivery-faults.v1.json",
        "route-equivalence.v1.json",
        "conversation.v1.json",
        "latecomer-forward-secrecy.v1.json",
        "leaver-removal-secrecy.v1.json",
        "incremental-growth.v1.json",
        "multigroup-isolation.v1.json",
        "admin-handover.v1.json",
        "deferred-tick-catchup.v1.json",
        "readd-after-eviction.v1.json",
        "late-welcome-backfill.v1.json",
    ]
    /// The one portable scenario kept beside the current-profile fixtures, where it was first used.
    static let requiredSet = "marmot/current/mdk-0.9.14/current-profile-required-set.v1.json"

    package static let declarations: [VectorSuiteDeclaration] = [
        VectorSuiteDeclaration(suite: "marmot-conformance", files: [folder + manifest] + (scenarios + incidents).map { folder + $0 },
                               minimumCases: 28 + 3),
        VectorSuiteDeclaration(suite: "marmot-convergence-policy", files: [folder + policyCases], minimumCases: 7),
    ]

    /// The scenario files the manifest calls portable, as paths under the vectors directory.
    package static func portableScenarios(directory: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: directory + "/" + folder + manifest),
              let o = try JSONSerialization.jsonObject(with: data) as? [String: Any], let entries = o["entries"] as? [[String: Any]] else {
            throw ConformanceError(.malformedScenario, "\(manifest): missing or not a manifest")
        }
        return entries.compactMap { e in
            guard e["kind"] as? String == "scenario_vector", e["status"] as? String == "portable", let a = e["artifact"] as? String else { return nil }
            return a == "current-profile-required-set.v1.json" ? requiredSet : folder + a
        }
    }

    /// One scenario file's result, for `invitekit conformance run` and the suite.
    package static func runScenario(path: String) async -> ConformanceResult {
        guard let data = FileManager.default.contents(atPath: path) else {
            var r = ConformanceResult(scenario: path)
            r.failures.append("cannot read \(path)")
            return r
        }
        do {
            var runner = try ConformanceRunner(json: Array(data))
            return await runner.run()
        } catch {
            var r = ConformanceResult(scenario: path)
            r.failures.append("\(error)")
            return r
        }
    }

    /// How many scenarios run at once: each client's node waits on its store's `fsync`, so runs
    /// overlap well; the results do not depend on it (each run has its own nodes and homes).
    static let parallelScenarios = 8

    /// ``runScenario(path:)`` for each path, several at a time, in the order given.
    package static func runScenarios(paths: [String]) async -> [ConformanceResult] {
        await withTaskGroup(of: (Int, ConformanceResult).self) { group in
            var results = [ConformanceResult?](repeating: nil, count: paths.count)
            for (i, path) in paths.enumerated() {
                if i >= parallelScenarios, let (done, r) = await group.next() { results[done] = r }
                group.addTask { (i, await runScenario(path: path)) }
            }
            for await (done, r) in group { results[done] = r }
            return results.enumerated().map { i, r in
                r ?? { var missing = ConformanceResult(scenario: paths[i]); missing.failures.append("did not run"); return missing }()
            }
        }
    }

    package static func run(directory: String) async -> [VectorSuiteResult] {
        var results = VectorSuiteResult(suite: "marmot-conformance")
        do {
            let listed = try portableScenarios(directory: directory)
            if Set(listed) != Set(scenarios.map { folder + $0 } + [requiredSet]) {
                results.record(manifest, "the manifest's portable scenarios are not the ones this suite declares")
            }
            let paths = listed + incidents.map({ folder + $0 })
            for (path, r) in zip(paths, await runScenarios(paths: paths.map { directory + "/" + $0 })) {
                results.record(path, r.passed ? nil : r.failures.joined(separator: "; "))
            }
        } catch {
            results = .unreadable("marmot-conformance", "\(error)")
        }
        var policy = VectorSuiteResult(suite: "marmot-convergence-policy")
        if let data = FileManager.default.contents(atPath: directory + "/" + folder + policyCases) {
            do {
                for r in try PolicyCaseRunner.run(json: Array(data)) { policy.record(r.scenario, r.passed ? nil : r.failures.joined(separator: "; ")) }
            } catch {
                policy = .unreadable("marmot-convergence-policy", "\(error)")
            }
        } else {
            policy = .unreadable("marmot-convergence-policy", "cannot read \(policyCases)")
        }
        return [results, policy]
    }
}
