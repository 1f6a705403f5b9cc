import ArgumentParser

/// Every top-level command, in the order `--help` lists them.
enum CommandRegistry {
    static let all: [ParsableCommand.Type] = [
        KeysCommand.self,
        NIP44Command.self,
        EventCommand.self,
        WrapCommand.self,
        UnwrapCommand.self,
        InviteCommand.self,
        KeyPackageCommand.self,
        MLSCommand.self,
        RelayCommand.self,
        VectorsCommand.self,
        ConformanceCommand.self,
        BenchCommand.self,
        DemoCommand.self,
        NodeInitCommand.self,
        NodeIDCommand.self,
        NodeServeCommand.self,
        NodeJoinCommand.self,
        GroupCommand.self,
        DoctorCommand.self,
    ]

    /// The commands under `root` (itself included) without an explicit `commandName`.
    /// ArgumentParser derives a missing name with `String(describing:)`, which costs a scan of
    /// every protocol conformance in the binary per command on each start (about 12 of a 20 ms
    /// start, `perf` on `invitekit --version`), so every command names itself and a debug build
    /// refuses to start otherwise.
    static func unnamed(under root: ParsableCommand.Type) -> [ParsableCommand.Type] {
        (root.configuration.commandName == nil ? [root] : []) + root.configuration.subcommands.flatMap { unnamed(under: $0) }
    }
}
