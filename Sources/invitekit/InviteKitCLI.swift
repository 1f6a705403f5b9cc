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
    /// `--help` and `--version` print as usual.
    static func main() async {
        do {
            var command = try parseAsRoot(NodeCommandRouting.route(Array(CommandLine.arguments.dropFirst())))
            if var async = command as? AsyncParsableCommand { try await async.run() } else { try command.run() }
        } catch {
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            if !(error is ExitCode) {
                let text = message(for: error).split(separator: "\n").first.map(String.init) ?? "error"
                StdIO.printError(text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text)
            }
            Foundation.exit(code.rawValue)
        }
    }
}

enum InviteKitVersion {
    static let string = "0.1.0"
}
