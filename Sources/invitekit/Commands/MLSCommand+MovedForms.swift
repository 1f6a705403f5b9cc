import ArgumentParser

/// The state-file commands were spelled `invitekit group … --state FILE` (argv was rewritten to
/// reach them) until they got their own command. A command line still in that form fails with a
/// usage error naming the `mls` command, not the parser's "unknown option", and is never sent
/// there silently.
extension MLSCommand {
    /// The message for `args` (without the program name) when they are a `group` command line
    /// meant for `mls`: one with `--state`, or a subcommand only `mls` has.
    static func movedFormHint(for args: [String]) -> String? {
        guard args.count >= 2, args[0] == "group" else { return nil }
        let subcommand = args[1]
        let stateFile = args.dropFirst(2).contains { $0 == "--state" || $0.hasPrefix("--state=") }
        let mlsNames = Set(configuration.subcommands.map { $0._commandName })
        let nodeNames = Set(GroupCommand.configuration.subcommands.map { $0._commandName })
        guard mlsNames.contains(subcommand), stateFile || !nodeNames.contains(subcommand) else { return nil }
        return "`invitekit group \(subcommand)` works on a node's group (--group ID); the state-file command is `invitekit mls \(subcommand)`: run it with the same options"
    }
}
