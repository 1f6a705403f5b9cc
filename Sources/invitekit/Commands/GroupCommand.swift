import ArgumentParser
import Foundation
import InviteKit
import InviteKitMLS

/// `invitekit group …`: a node's groups, kept in its home (docs/storage.md §5). The state-file tool
/// (`--state FILE`, no home) is `invitekit mls …`.
struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "A node's groups, kept in its home (the state-file tool is `invitekit mls`).",
        subcommands: [New.self, List.self, Members.self, Send.self, Read.self, React.self, Reply.self, Edit.self, Delete.self, Add.self, Remove.self,
                      Leave.self, Update.self, Retention.self, Rename.self, Describe.self, Admin.self, Relays.self, Disband.self, Mute.self,
                      Pin.self, MarkRead.self])

    /// `--home` and `--json`, on every node command.
    struct HomeOptions: ParsableArguments {
        @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).", transform: PathOption.parse) var home: String?
        @Flag(help: "Print JSON.") var json = false
        var resolved: StoreHome { StoreHome.resolve(home) }
        /// The home, refused (naming the missing file and the way out) unless it holds both its
        /// key and its database: `group new` must not start over on an empty database.
        func intact() throws -> StoreHome {
            let home = resolved
            try home.requireIntact()
            return home
        }
    }

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a group with this node as its admin; print its id.")
        @OptionGroup var options: HomeOptions
        @Option(help: "The group's name.") var name: String
        @OptionGroup var profile: ProfileOption
        @Flag(name: .customLong("out-of-band-tree"), help: "Negotiate InviteKit's out-of-band ratchet tree (current profile; only InviteKit members can join).") var outOfBandTree = false

        func run() async throws {
            try await runReportingErrors {
                let node = try InviteKitNode(home: try options.intact())
                let group = try await node.createGroup(name: name, profile: profile.profile, outOfBandTree: outOfBandTree)
                NodeOutput.emit(options.json, ["group": group.id, "nostr_group_id": group.nostrGroupID, "name": name, "profile": group.profile.rawValue],
                                text: group.id)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List this node's groups (read only: works while serve runs).")
        @OptionGroup var options: HomeOptions

        func run() async throws {
            try runReportingErrors {
                for g in try NodeHome(try options.intact()).groups() {
                    NodeOutput.emit(options.json, ["group": g.id, "nostr_group_id": g.nostrGroupID, "name": g.name ?? "", "epoch": "\(g.epoch)"],
                                    text: "\(g.id)  epoch \(g.epoch)  \(g.name ?? "(unnamed)")")
                }
            }
        }
    }

    struct Members: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "members", abstract: "List a group's members with their admin flag, and its epoch (read only: works while serve runs).")
        @OptionGroup var options: HomeOptions
        @Option(help: "The group id.") var group: String

        func run() async throws {
            try runReportingErrors {
                // The stored state is current after every transaction, so no lock is needed.
                let (members, epoch) = try NodeHome(try options.intact()).members(of: group)
                for m in members {
                    let npub = NIP19.npub(m.publicKey)
                    NodeOutput.emit(options.json, ["npub": npub, "admin": m.isAdmin ? "true" : "false", "epoch": "\(epoch)"],
                                    text: "\(npub)\(m.isAdmin ? "  admin" : "")  epoch \(epoch)")
                }
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send", abstract: "Send a message; print its delivery status once a relay acknowledged it.")
        @OptionGroup var options: HomeOptions
        @Option(help: "The group id.") var group: String
        @Option(help: "Give up waiting for the relay after S seconds (exit 4).", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 30
        @Argument(help: "The message.") var text: String

        func run() async throws {
            try await runReportingErrors {
                try await GroupCommand.sendAndReport(.send(group: group, text: text), options: options, timeout: timeout)
            }
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read",
            abstract: "Print a group's conversation in order (time, message id, sender npub, status, text with edits, reply targets, reactions); --follow keeps printing.")
        @OptionGroup var options: HomeOptions
        @Option(help: "The group id.") var group: String
        @Flag(help: "Keep printing new messages, reactions, edits and deletions until interrupted.") var follow = false
        @Option(help: "Seconds between checks with --follow.", transform: NumericOption.seconds(NumericOption.pollInterval)) var interval: Double = 0.5

        func run() async throws {
            try await runReportingErrors {
                let reader = NodeHome(try options.intact())
                func notFound<T>(_ body: () throws -> T) throws -> T {
                    do { return try body() } catch let e as InviteKitError where e.code == .groupNotFound { throw CLIFailure("no group \(group)") }
                }
                // The conversation so far, folded; then, with --follow, each new row as it comes.
                var after: StoredMessage?
                while true {
                    let page = try notFound { try reader.timeline(of: group, after: after) }
                    for t in page {
                        let (fields, text) = GroupCommand.render(t)
                        NodeOutput.emit(options.json, fields, text: text)
                    }
                    guard let last = page.last else { break }
                    after = last.message
                }
                guard follow else { return }
                // Every row, reactions, edits and deletions too, from the newest on; the library follows.
                var cursor: StoredMessage?
                while let last = try notFound({ try reader.history(of: group, after: cursor, limit: 10_000) }).last { cursor = last }
                do {
                    for try await m in reader.messages(of: group, after: cursor, follow: true, interval: .milliseconds(Int(interval * 1000))) {
                        if let relation = MessageRelation(m), MessageRelation.annotationKinds.contains(m.kind) {
                            let (fields, text) = GroupCommand.renderAnnotation(m, relation)
                            NodeOutput.emit(options.json, fields, text: text)
                        } else {
                            let (fields, text) = GroupCommand.render(TimelineMessage.fold([m], related: [])[0])
                            NodeOutput.emit(options.json, fields, text: text)
                        }
                    }
                } catch let e as InviteKitError where e.code == .groupNotFound {
                    throw CLIFailure("no group \(group)")
                }
            }
        }
    }

    /// `--home`, `--json`, `--group` and `--timeout`: every membership change.
    struct ChangeOptions: ParsableArguments {
        @OptionGroup var home: HomeOptions
        @Option(help: "The group id.") var group: String
        @Option(help: "Give up waiting for the relay after S seconds (exit 4).", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 30
        /// A running serve uses its own.
        @OptionGroup var eventBudget: EventBudgetOption
        var budget: EventBudget { get throws { try eventBudget.budget } }

        /// Runs the change `request` names as every group change runs (``GroupCommand/commit(_:options:timeout:budget:)``),
        /// a refusal in words; `request` checks the command's own input first, so bad input
        /// touches no home.
        func commit(_ request: () throws -> NodeHomeRequest) async throws {
            try await runReportingErrors {
                try await GroupCommand.commit(try request(), options: home, timeout: timeout, budget: try budget)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add users by npub (admins only): fetch their KeyPackages from the group's relays, commit (in as many Commits as --max-event-bytes needs), and send each Welcome after a relay's OK.")
        @OptionGroup var change: ChangeOptions
        @Option(help: "A user's npub1… or hex key; repeat the option to add several.") var member: [String]

        func run() async throws {
            try await change.commit {
                guard !member.isEmpty else { throw ValidationError("at least one --member is required") }
                for m in member { _ = try NostrKeys.parsePublicKey(m) }
                return .add(group: change.group, members: member)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a member (admins only); print the new epoch once a relay acknowledged the Commit.")
        @OptionGroup var change: ChangeOptions
        @Option(help: "The member's npub1… or hex key.") var member: String

        func run() async throws {
            try await change.commit {
                _ = try NostrKeys.parsePublicKey(member)
                return .remove(group: change.group, member: member)
            }
        }
    }

    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "leave", abstract: "Ask to leave the group (an admin commits it); print once a relay acknowledged the request.")
        @OptionGroup var change: ChangeOptions

        func run() async throws {
            try await runReportingErrors {
                let home = try change.home.intact()
                let id = try await NodeInbox.perform(.leave(group: change.group), home: home, settle: .decided, timeout: change.timeout,
                                                     notTakenMessage: "not sent: serve did not take the request")
                let last = try NodeHome(home).deliveryStatus(of: id)
                NodeOutput.emit(change.home.json, ["event": id, "status": last.rawValue],
                                text: "leave request \(id) \(last.rawValue); an admin's Commit removes this member")
                if last != .acked { throw CLIFailure("the leave request was not acknowledged by any relay (\(last.rawValue))", exitCode: 4) }
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update", abstract: "Rotate this member's keys (a self-update Commit); print the new epoch once a relay acknowledged it.")
        @OptionGroup var change: ChangeOptions

        func run() async throws {
            try await change.commit { .update(group: change.group) }
        }
    }

    /// A membership Commit: built and queued (here or by `serve`), then reported once resolved.
    /// Exit 0 applied, 1 rolled back (another Commit took the epoch first: run it again), 4 no
    /// relay answered in time (it stays queued and is re-sent).
    static func commit(_ request: NodeHomeRequest, options: HomeOptions, timeout: Double, budget: EventBudget = .standard) async throws {
        let home = try options.intact()
        // Driving the node itself, the command also stays until the Commit's released events (tree
        // chunks, Welcomes) reached a relay: it holds the home, so nobody else would send them now.
        let id = try await NodeInbox.perform(request, home: home, settle: .decided, timeout: timeout, budget: budget,
                                             notTakenMessage: "not done: serve did not take the request")
        let reader = NodeHome(home)
        let status = try reader.commitStatus(of: id) ?? .waiting
        let epoch = try? reader.group(request.group).epoch
        NodeOutput.emit(options.json, ["event": id, "status": status.rawValue, "epoch": epoch.map { "\($0)" } ?? ""],
                        text: "commit \(id) \(status.rawValue)\(status == .confirmed ? "; epoch \(epoch ?? 0)" : "")")
        switch status {
        case .confirmed: return
        case .rolledBack: throw CLIFailure("the Commit was rolled back (refused by every relay, or another Commit took the epoch first): run the command again")
        case .waiting: throw CLIFailure("no relay acknowledged the Commit within \(Int(timeout)) s; it stays queued and is re-sent", exitCode: 4)
        }
    }
}
