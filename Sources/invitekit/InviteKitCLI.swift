import ArgumentParser
import Foundation

@main
struct InviteKitCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invitekit",
        abstract: "Cryptographic group invites over Nostr: keys, NIP-44, gift wraps, invites, key packages, groups.",
        version: InviteKitVersion.string,
        subcommands: CommandRegistry.all
    )

    /// Parses and runs, keeping every failure to one stderr line (usage errors included);
    /// `--help` and `--version` print as usual. Every write to stdout is checked (StdIO), so
    /// the exit status is 0 only when all the output was delivered.
    static func main() async {
        #if DEBUG
        let unnamed = CommandRegistry.unnamed(under: Self.self)
        precondition(unnamed.isEmpty, "commands without a commandName: \(unnamed)")
        #endif
        StdIO.prepareDescriptors()
        let arguments = Array(CommandLine.arguments.dropFirst())
        var parsed = false
        do {
            var command = try parseAsRoot(arguments)
            parsed = true
            if var async = command as? AsyncParsableCommand { try await async.run() } else { try command.run() }
        } catch {
            let code = exitCode(for: error)
            // A state-file command line in its old `group` form: say where it went.
            if !parsed, code != .success, let hint = MLSCommand.movedFormHint(for: arguments) {
                StdIO.printError(hint)
                StdIO.flush()
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            if code == .success {
                StdIO.printLine(fullMessage(for: error))
                StdIO.flush()
                Foundation.exit(0)
            }
            if !(error is ExitCode) {
                // Parser errors quote the offending argument, which may be a secret key.
                let text = SecretRedaction.redact(message(for: error).split(separator: "\n").first.map(String.init) ?? "error")
                StdIO.printError(text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text)
            }
            StdIO.flush()
            Foundation.exit(code.rawValue)
        }
        StdIO.flush()
    }
}

enum InviteKitVersion {
    static let string = "0.1.0"
}
