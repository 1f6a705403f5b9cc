import ArgumentParser
import InviteKit
import InviteKitMLS

extension MLSCommand {
    /// The hidden flags of the group-data commands: each skips one rule this member checks before
    /// sending, to build the Commit a member ignoring it would publish, so that tests can show
    /// every receiver refusing it (PROTOCOL §5.16). They make nothing a group accepts.
    struct SendRuleSkips: ParsableArguments {
        @Flag(name: .customLong("skip-admin-rule"), help: .hidden) var adminRule = false
        @Flag(name: .customLong("skip-lifecycle-rule"), help: .hidden) var lifecycleRule = false

        var rules: Set<MarmotSendRule> { Set([adminRule ? .admin : nil, lifecycleRule ? .lifecycle : nil].compactMap { $0 }) }

        /// The Commit replacing the group data with `data`: the honest one, or the forged one
        /// when a rule is skipped.
        func commit(_ group: GroupStateFile.Group, groupData data: MarmotGroupData) throws -> GroupStateFile.Pending {
            if rules.isEmpty { return try group.commit(groupData: data) }
            return try group.forgedCommit(groupData: data, skipping: rules, now: UnixTime.now(), rng: SystemRandom())
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Print a pending commit changing the group's name and/or description (kind 445; admins only).")
        @OptionGroup var state: StateOption
        @Option(name: .customLong("name"), help: "The new name.") var name: String?
        @Option(name: .customLong("description"), help: "The new description.") var description: String?
        @OptionGroup var skips: SendRuleSkips

        func validate() throws {
            guard name != nil || description != nil else { throw ValidationError("give --name or --description") }
        }

        func run() throws {
            try runReportingErrors {
                try state.locked {
                    var file = try GroupStateFile.load(state.path)
                    try MLSCommand.recordPending(&file, path: state.path, action: "rename") { group in
                        var data = group.groupData
                        if let name { data.name = name }
                        if let description { data.description = description }
                        return try skips.commit(group, groupData: data)
                    }
                }
            }
        }
    }

    struct Retention: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retention",
            abstract: "Print a pending commit setting the group's message retention (component 0x8005, kind 445; admins only, current profile).")
        @OptionGroup var state: StateOption
        @Option(name: .customLong("seconds"), help: "Seconds a message lives after it was written; 0 turns retention off.") var seconds: UInt64
        @OptionGroup var skips: SendRuleSkips

        func run() throws {
            try runReportingErrors {
                try state.locked {
                    var file = try GroupStateFile.load(state.path)
                    try MLSCommand.recordPending(&file, path: state.path, action: "retention") { group in
                        guard group.profile == .current else { throw CLIFailure("a MIP-profile group has no message retention") }
                        var data = group.groupData
                        data.retentionSeconds = seconds
                        return try skips.commit(group, groupData: data)
                    }
                }
            }
        }
    }
}
