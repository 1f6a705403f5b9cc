import ArgumentParser
import InviteKit

/// `invitekit group rename|describe|admin add|admin remove|relays|disband`: changes to the group
/// itself (PROTOCOL §5.16), each one Commit reported as `group remove` reports its own.
extension GroupCommand {
    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename the group (admins only); print the new epoch once a relay acknowledged the Commit.")
        @OptionGroup var change: ChangeOptions
        @Option(help: "The new name (at most 256 bytes).") var name: String

        func run() async throws {
            try await change.commit { .rename(group: change.group, name: name) }
        }
    }

    struct Describe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "describe", abstract: "Replace the group's description (admins only); print the new epoch once a relay acknowledged the Commit.")
        @OptionGroup var change: ChangeOptions
        @Option(help: "The new description (at most 4096 bytes; empty clears it).") var description: String

        func run() async throws {
            try await change.commit { .describe(group: change.group, description: description) }
        }
    }

    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "admin", abstract: "Promote a member to admin, or take admin rights away (admins only).", subcommands: [Promote.self, Demote.self])

        struct Promote: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Make a member an admin; print the new epoch once a relay acknowledged the Commit.")
            @OptionGroup var change: ChangeOptions
            @Option(help: "The member's npub1… or hex key.") var member: String

            func run() async throws {
                try await change.commit {
                    _ = try NostrKeys.parsePublicKey(member)
                    return .promote(group: change.group, member: member)
                }
            }
        }

        struct Demote: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove",
                abstract: "Take admin rights from an admin (yourself included; the last admin must promote a successor first); print the new epoch once a relay acknowledged the Commit.")
            @OptionGroup var change: ChangeOptions
            @Option(help: "The admin's npub1… or hex key.") var member: String

            func run() async throws {
                try await change.commit {
                    _ = try NostrKeys.parsePublicKey(member)
                    return .demote(group: change.group, member: member)
                }
            }
        }
    }

    struct Relays: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "relays",
            abstract: "Replace the relays the group's events go to (admins only); print the new epoch once a relay acknowledged the Commit.")
        @OptionGroup var change: ChangeOptions
        @Option(name: .customLong("relay"), help: "A ws:// or wss:// relay URL; repeat for each (1 to 16).") var relays: [String] = []

        func run() async throws {
            try await change.commit {
                guard !relays.isEmpty else { throw ValidationError("give at least one --relay") }
                return .relays(group: change.group, relays: relays)
            }
        }
    }

    struct Disband: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disband",
            abstract: "Disband the group (admins only, current profile): every other member is removed and the group takes no further change.")
        @OptionGroup var change: ChangeOptions

        func run() async throws {
            try await change.commit { .disband(group: change.group) }
        }
    }
}
