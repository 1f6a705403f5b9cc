import ArgumentParser
import Foundation

/// A failure the CLI reports as one line on stderr with a chosen exit code.
struct CLIFailure: Error {
    let message: String
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }
}

/// Runs a command body, turning any error into one stderr line and a non-zero exit, so no
/// command prints a stack of nested descriptions or crashes on bad input.
func runReportingErrors(_ body: () async throws -> Void) async throws {
    do { try await body() } catch { throw report(error) }
}

func runReportingErrors(_ body: () throws -> Void) throws {
    do { try body() } catch { throw report(error) }
}

/// Prints `error` as one line (unless it is already an exit code) and returns the exit code.
private func report(_ error: any Error) -> ExitCode {
    switch error {
    case let e as ExitCode: return e
    // A usage error found by `run()` rather than by the parser is still a usage error.
    case let e as ValidationError:
        StdIO.printError(e.message)
        return .validationFailure
    case let e as CLIFailure:
        StdIO.printError(e.message)
        return ExitCode(e.exitCode)
    default:
        StdIO.printError(CLIMessages.describe(error))
        return ExitCode(1)
    }
}

/// ArgumentParser prints a transform's error (a refused numeric option) by its description.
extension CLIFailure: CustomStringConvertible {
    var description: String { message }
}
