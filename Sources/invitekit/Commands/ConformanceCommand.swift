import ArgumentParser
import Foundation
import InviteKitConformance
import InviteKitVectors

/// `invitekit conformance run FILE…`: MDK scenario documents (Scenario IR v2/v3) or the spec's
/// branch-selector cases, run against InviteKit (PROTOCOL §5.13).
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance", abstract: "Marmot conformance scenarios (MDK 0.9.14's portable set).", subcommands: [Run.self])

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run",
            abstract: "Run scenario files; one line per scenario (naming each outcome that failed), then 'N passed, M failed'.")
        @Argument(help: "Scenario files (*.v1.json), or policy_cases.json.", transform: PathOption.parse) var files: [String]

        func run() async throws {
            try await runReportingErrors {
                var passed = 0, failed = 0
                // Selector cases are checked here; scenario files run together, reported in order.
                var perFile: [[ConformanceResult]] = []
                var scenarioFiles: [(index: Int, path: String)] = []
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { throw CLIFailure("cannot read \(file)") }
                    if (try? JSONSerialization.jsonObject(with: data)) is [Any] {
                        perFile.append(try PolicyCaseRunner.run(json: Array(data)))
                    } else {
                        scenarioFiles.append((perFile.count, file))
                        perFile.append([])
                    }
                }
                for (file, r) in zip(scenarioFiles, await MarmotConformanceVectorSuites.runScenarios(paths: scenarioFiles.map(\.path))) {
                    perFile[file.index] = [r]
                }
                for r in perFile.joined() {
                    StdIO.printLine("\(r.passed ? "ok  " : "FAIL") \(TerminalText.escape(r.scenario)): \(r.checked) outcomes checked")
                    for f in r.failures { StdIO.printLine("     - \(TerminalText.escape(f))") }
                    if r.passed { passed += 1 } else { failed += 1 }
                }
                StdIO.printLine("\(passed) passed, \(failed) failed")
                if failed > 0 || passed == 0 { throw ExitCode(1) }
            }
        }
    }
}
