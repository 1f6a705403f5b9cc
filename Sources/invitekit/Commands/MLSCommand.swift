import ArgumentParser
import Foundation
import InviteKit

/// `invitekit mls …`: one member's Marmot group (RFC 9420 MLS over Nostr) kept in a state file,
/// for scripting and interop debugging (issue 11, "CLI"); no home, no node. Every command prints
/// JSON lines (`simulate` a readable table unless `--json`). A node's groups are `invitekit group`.
struct MLSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mls", abstract: "One member's Marmot group (RFC 9420 MLS over Nostr) kept in a state file (--state FILE); JSON lines out.",
        subcommands: [Create.self, Add.self, Remove.self, Update.self, Rename.self, Retention.self, Leave.self, Confirm.self, Process.self, Send.self, Simulate.self])

    /// `--state FILE`, shared by every command that works on a group.
    struct StateOption: ParsableArguments {
        @Option(name: .customLong("state"), help: ArgumentHelp("Group state file (created 0600, replaced atomically).", valueName: "file"),
                transform: PathOption.parse)
        var path: String
        @Option(name: .customLong("lock-wait"), help: ArgumentHelp("Seconds to wait for another command holding the state's lock (0...600).", valueName: "seconds"),
                transform: NumericOption.seconds(0...600))
        var lockWait: Double = GroupStateFile.defaultLockWait

        func validate() throws {
            guard lockWait.isFinite, (0...600).contains(lockWait) else { throw ValidationError("--lock-wait must be a number of seconds in 0...600") }
        }

        /// Runs one command's read-modify-write of the state under its lock.
        func locked<T>(_ body: () throws -> T) throws -> T { try GroupStateFile.locked(path, wait: lockWait, body) }
    }

    /// Non-empty lines of stdin, each one Nostr event. Everything is parsed before anything is
    /// processed, so malformed input changes nothing.
    static func readEvents(requireSignature: Bool = true) throws -> [NostrEvent] {
        let input = try StdIO.readAll()
        var events: [NostrEvent] = []
        var lineNumber = 0
        for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0d })
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }) { continue }
            do { events.append(try NostrEvent(json: Array(trimmed), requireSignature: requireSignature)) } catch {
                throw CLIFailure("stdin line \(lineNumber) is not a Nostr event: \(CLIMessages.describe(error))")
            }
        }
        return events
    }

    /// An `--admin` / `--member` value: 64 hex characters or npub1….
    static func publicKey(_ text: String, option: String) throws -> [UInt8] {
        do { return try NostrKeys.parsePublicKey(text).rawRepresentation } catch {
            throw CLIFailure("\(option) \(text) is not a public key (64 hex characters or npub1…)", exitCode: 64)
        }
    }

    /// A group commit command's common tail: refuse to stack commits, record the new one as
    /// pending, save, print it.
    static func recordPending(_ file: inout GroupStateFile, path: String, action: String,
                              build: (GroupStateFile.Group) throws -> GroupStateFile.Pending) throws {
        if let p = file.pending, p.fromEpoch == file.group.epoch {
            throw CLIFailure("a commit is already pending for epoch \(p.fromEpoch) (event \(p.event.id)): run mls confirm first")
        }
        let pending = try build(file.group)
        file.pending = pending
        try file.save(path)
        var o = JSONOutput()
        o.add("type", "pending_commit")
        o.add("action", action)
        o.add("from_epoch", Int64(pending.fromEpoch))
        o.add("added", json: .array(pending.keyPackageEvents.map { .string($0.pubkey) }))
        o.add("event", json: pending.event.jsonValue)
        StdIO.printLine(o.string)
    }

    /// The group line printed by `create` and on joining.
    static func groupSummary(_ group: GroupStateFile.Group, type: String) -> JSONOutput {
        var o = JSONOutput()
        o.add("type", type)
        o.add("nostr_group_id", Hex.encode(group.nostrGroupID))
        o.add("mls_group_id", Hex.encode(group.state.groupID))
        o.add("epoch", Int64(group.epoch))
        o.add("profile", group.profile.rawValue)
        o.add("name", group.groupData.name)
        o.add("members", json: .array(group.state.memberIdentities.map { .string(Hex.encode($0)) }))
        o.add("admins", json: .array(group.groupData.admins.map { .string(Hex.encode($0)) }))
        o.add("relays", json: .array(group.groupData.relays.map { .string($0) }))
        return o
    }
}
