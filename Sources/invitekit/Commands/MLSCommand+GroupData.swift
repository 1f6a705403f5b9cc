import ArgumentParser
import InviteKit
import InviteKitMLS

extension MLSCommand {
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Print a pending commit changing the group's name and/or description (kind 445; admins only).")
        @OptionGroup var state: StateOption
        @Option(name: .customLong("name"), help: "The new name.") var name: String?
        @Option(name: .customLong("description"), help: "The new description.") var description: String?
        /// Builds the commit a non-admin ignoring MIP-03 would publish, so that tests can show
        /// every receiver refusing it (PROTOCOL §5.16). Hidden: it makes nothing a group accepts.
        @Flag(name: .customLong("skip-admin-rule"), help: .hidden) var skipAdminRule = false

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
                        if skipAdminRule { return try group.commitSkippingAdminRule(groupData: data, now: UnixTime.now(), rng: SystemRandom()) }
                        return try group.commit(groupData: data)
                    }
                }
            }
        }
    }
}
