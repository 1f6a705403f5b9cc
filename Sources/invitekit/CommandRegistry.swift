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
        BenchCommand.self,
        DemoCommand.self,
        NodeInitCommand.self,
        NodeIDCommand.self,
        NodeServeCommand.self,
        NodeJoinCommand.self,
        GroupCommand.self,
        DoctorCommand.self,
    ]
}
