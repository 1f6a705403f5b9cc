import ArgumentParser
import Foundation
import InviteKitNostr
import InviteKitVectors

struct VectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors", abstract: "Test vectors.", subcommands: [Verify.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "verify",
            abstract: "Run every vector suite under the directory; one line per suite, then 'N passed, N failed'.")
        @Option(help: "The vectors directory.", transform: PathOption.parse) var dir = "vectors"
        @Flag(help: "Print each failed case.") var verbose = false

        func run() async throws {
            try await runReportingErrors {
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                    throw CLIFailure("no vectors directory at \(dir)")
                }
                let results = await VectorSuiteRegistry.run(directory: dir)
                var passed = 0, failed = 0
                for r in results {
                    let skips = r.skipped > 0 ? ", \(r.skipped) skipped" : ""
                    StdIO.printLine("\(r.failed == 0 ? "ok  " : "FAIL") \(r.suite): \(r.passed) passed, \(r.failed) failed\(skips)")
                    for (reason, n) in r.skips.sorted(by: { $0.key < $1.key }) { StdIO.printLine("     skipped \(n): \(TerminalText.escape(reason))") }
                    if verbose || r.failed > 0 { for f in r.failures.prefix(verbose ? .max : 5) { StdIO.printLine("     - \(TerminalText.escape(f))") } }
                    passed += r.passed; failed += r.failed
                }
                StdIO.printLine("\(passed) passed, \(failed) failed")
                if failed > 0 || passed == 0 { throw ExitCode(1) }
            }
        }
    }
}
