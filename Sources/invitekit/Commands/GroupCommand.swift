import ArgumentParser
import Foundation
import InviteKit
import InviteKitMLS

/// `invitekit group simulate` (issue 4).
struct GroupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group", abstract: "Marmot groups (RFC 9420 MLS).", subcommands: [Simulate.self])

    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run a whole group life and print the facts of each epoch.")
        @Option(name: .customLong("members"), help: "Group size after the first add (1...2000; every member processes every commit, so time grows with N²).") var members: Int
        @Option(name: .customLong("removals"), help: "Admin removals after the adds.") var removals: Int = 0
        @Option(name: .customLong("seed"), help: "Seed for replayable randomness.") var seed: UInt64 = 1
        @Flag(name: .customLong("json"), help: "Print a JSON array.") var json = false

        func run() throws {
            try runReportingErrors {
                guard (1...2000).contains(members) else { throw CLIFailure("--members must be in 1...2000") }
                guard removals >= 0, removals <= max(0, members - 2) else { throw CLIFailure("--removals must be in 0...\(max(0, members - 2))") }
                let facts = try MarmotSimulation.run(members: members, removals: removals, seed: seed)
                if json {
                    let arr: [JSONValue] = facts.map { f in
                        var o = JSONOutput()
                        o.add("epoch", Int64(f.epoch))
                        o.add("action", f.action)
                        o.add("members", f.members)
                        o.add("commit_bytes", f.commitBytes)
                        o.add("welcomes", f.welcomes)
                        o.add("converged", f.converged)
                        o.add("fingerprint", f.fingerprint)
                        o.add("message_readers", f.messageReaders)
                        o.add("removed_readers", f.removedReaders)
                        o.add("commit_ms", f.commitMillis)
                        return o.value
                    }
                    StdIO.printLine(JSONWriter.serialize(.array(arr)))
                } else {
                    for f in facts {
                        StdIO.printLine("epoch \(f.epoch) \(f.action): members=\(f.members) commit_bytes=\(f.commitBytes) welcomes=\(f.welcomes) "
                            + "converged=\(f.converged) fingerprint=\(f.fingerprint) readers=\(f.messageReaders) removed_readers=\(f.removedReaders) "
                            + String(format: "commit_ms=%.2f", f.commitMillis))
                    }
                }
                if facts.contains(where: { !$0.converged || $0.removedReaders > 0 }) { throw CLIFailure("simulation found a divergence") }
            }
        }
    }
}
