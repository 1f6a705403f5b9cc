import ArgumentParser
import Foundation
import InviteKit
import InviteKitMLS

extension MLSCommand {
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a group whose only member (and admin) is the secret key's owner.")
        @OptionGroup var secret: SecretKeyInput
        @OptionGroup var state: StateOption
        @Option(name: .customLong("name"), help: "Group name.") var name: String
        @Option(name: .customLong("description"), help: "Group description.") var description = ""
        @Option(name: .customLong("relay"), help: "Relay URL of the group (repeatable, at least one).") var relays: [String] = []
        @Option(name: .customLong("admin"), help: "Another admin's public key, hex or npub (repeatable; MIP profile only: a current-profile admin must be a member).") var admins: [String] = []
        @OptionGroup var profile: ProfileOption
        @Flag(name: .customLong("out-of-band-tree"), help: "Negotiate InviteKit's out-of-band ratchet tree (current profile; only InviteKit members can join).") var outOfBandTree = false

        func validate() throws {
            guard !relays.isEmpty else { throw ValidationError("give at least one --relay") }
        }

        func run() throws {
            try runReportingErrors {
                let key = try secret.resolve()
                let others = try admins.map { try MLSCommand.publicKey($0, option: "--admin") }
                    .filter { $0 != key.publicKey.rawRepresentation }
                let group = try state.locked {
                    try GroupStateFile.requireAbsent(state.path)
                    let (_, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: false, profile: profile.profile)
                    let group = try GroupStateFile.Group.create(creator: bundle, name: name, description: description, otherAdmins: others, relays: relays,
                                                                outOfBandTree: outOfBandTree)
                    try GroupStateFile(group: group, pending: nil).save(state.path)
                    return group
                }
                StdIO.printLine(MLSCommand.groupSummary(group, type: "created").string)
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "KeyPackage events (one per line) on stdin; print the pending add commit (kind 445).")
        @OptionGroup var state: StateOption
        @OptionGroup var eventBudget: EventBudgetOption

        func run() throws {
            try runReportingErrors {
                let budget = try eventBudget.budget
                let events = try MLSCommand.readEvents()
                guard !events.isEmpty else { throw CLIFailure("no KeyPackage event on stdin") }
                let packages = try events.map { try KeyPackageValidator.validate($0) }
                try state.locked {
                    var file = try GroupStateFile.load(state.path)
                    try MLSCommand.recordPending(&file, path: state.path, action: "add") { try $0.commit(adding: packages, budget: budget) }
                }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Print the pending commit removing members (kind 445).")
        @OptionGroup var state: StateOption
        @Option(name: .customLong("member"), help: "Public key to remove, hex or npub (repeatable).") var members: [String] = []
        @OptionGroup var eventBudget: EventBudgetOption

        func validate() throws { guard !members.isEmpty else { throw ValidationError("give at least one --member") } }

        func run() throws {
            try runReportingErrors {
                let budget = try eventBudget.budget
                let keys = try members.map { try MLSCommand.publicKey($0, option: "--member") }
                try state.locked {
                    var file = try GroupStateFile.load(state.path)
                    let current = Set(file.group.state.memberIdentities)
                    for k in keys where !current.contains(k) { throw CLIFailure("\(Hex.encode(k)) is not a member of the group") }
                    try MLSCommand.recordPending(&file, path: state.path, action: "remove") { try $0.commit(removing: keys, budget: budget) }
                }
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "update", abstract: "Print a pending self-update commit (new leaf keys; any member may).")
        @OptionGroup var state: StateOption
        @OptionGroup var eventBudget: EventBudgetOption

        func run() throws {
            try runReportingErrors {
                let budget = try eventBudget.budget
                try state.locked {
                    var file = try GroupStateFile.load(state.path)
                    try MLSCommand.recordPending(&file, path: state.path, action: "update") { try $0.commit(budget: budget) }
                }
            }
        }
    }

    struct Leave: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "leave", abstract: "Print this member's SelfRemove proposal (kind 445); an admin commits it.")
        @OptionGroup var state: StateOption

        func run() throws {
            try runReportingErrors {
                let (file, event) = try state.locked {
                    var file = try GroupStateFile.load(state.path)
                    let event = try file.group.leaveEvent()
                    try file.save(state.path)
                    return (file, event)
                }
                var o = JSONOutput()
                o.add("type", "leave_proposal")
                o.add("epoch", Int64(file.group.epoch))
                o.add("event", json: event.jsonValue)
                StdIO.printLine(o.string)
            }
        }
    }

    struct Confirm: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "confirm",
            abstract: "Merge the pending commit once relays acknowledged it; only then print the Welcome gift wraps (kind 1059).")
        @OptionGroup var secret: SecretKeyInput
        @OptionGroup var state: StateOption
        @Option(name: .customLong("acked-by"), help: "A relay that acknowledged the commit event (repeatable, required).") var ackedBy: [String] = []
        @OptionGroup var eventBudget: EventBudgetOption

        func run() throws {
            try runReportingErrors {
                // Releasing a Welcome before a relay holds the commit strands the joiner (MIP-02).
                guard !ackedBy.isEmpty else {
                    throw CLIFailure("refusing to confirm: give --acked-by URL for each relay that acknowledged the commit event", exitCode: 64)
                }
                let key = try secret.resolve()
                let budget = try eventBudget.budget
                let (file, pending, release) = try state.locked {
                    var file = try GroupStateFile.load(state.path)
                    guard let pending = file.pending else { throw CLIFailure("no pending commit in \(state.path)") }
                    let release: MarmotCommitRelease
                    do {
                        release = try file.group.confirmPublished(pending, acknowledgedBy: ackedBy, wrappingWelcomesFrom: key, budget: budget)
                    } catch let e as MLSError where e.code == .staleCommit {
                        // The commit lost: drop it so the next commit can be made on the new epoch.
                        var dropped = try GroupStateFile.load(state.path)
                        dropped.pending = nil
                        try dropped.save(state.path)
                        throw e
                    }
                    file.pending = nil
                    try file.save(state.path)
                    return (file, pending, release)
                }
                var o = JSONOutput()
                o.add("type", "commit_confirmed")
                o.add("epoch", Int64(file.group.epoch))
                o.add("event_id", pending.event.id)
                o.add("acked_by", json: .array(ackedBy.map { .string($0) }))
                o.add("members", file.group.state.memberIdentities.count)
                StdIO.printLine(o.string)
                // Publish in this order: every chunk stored before the first Welcome (PROTOCOL §5.11).
                for chunk in release.treeChunks {
                    var c = JSONOutput()
                    c.add("type", "tree_chunk")
                    c.add("event", json: chunk.jsonValue)
                    StdIO.printLine(c.string)
                }
                for delivery in release.welcomes {
                    var w = JSONOutput()
                    w.add("type", "welcome")
                    w.add("recipient", delivery.recipient)
                    w.add("key_package_event", delivery.keyPackageEventID)
                    w.add("event", json: delivery.wrap.jsonValue)
                    StdIO.printLine(w.string)
                }
            }
        }
    }
}
