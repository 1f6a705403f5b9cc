import ArgumentParser
import Foundation
import InviteKit

extension GroupCommand {
    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a whole group life on the RFC 9420 engine (Marmot) and print the facts of each epoch as JSON lines.")
        @Option(name: .customLong("members"), help: "Group size after the adds (1...2000; every member processes every commit, so time grows with N²).", transform: NumericOption.integer(1...2000)) var members: Int
        @Option(name: .customLong("removals"), help: "Admin removals after the adds.", transform: NumericOption.integer(0...2000)) var removals: Int = 0
        @Option(name: .customLong("seed"), help: "Seed for replayable randomness.", transform: NumericOption.integer(UInt64.min...UInt64.max)) var seed: UInt64 = 1

        /// The most work one run may ask for, in member-epochs: every member processes every
        /// commit, so the adds cost about members²/2 and each removal about members more.
        static let maxWork = 2_000_000

        static func work(members: Int, removals: Int) -> Int {
            let (adds, o1) = members.multipliedReportingOverflow(by: members)
            let (rems, o2) = members.multipliedReportingOverflow(by: removals)
            let (sum, o3) = (adds / 2).addingReportingOverflow(rems)
            return o1 || o2 || o3 ? .max : sum
        }

        func validate() throws {
            guard (1...2000).contains(members) else { throw ValidationError("--members must be in 1...2000") }
            guard removals >= 0, removals <= max(0, members - 2) else { throw ValidationError("--removals must be in 0...\(max(0, members - 2))") }
            let w = Self.work(members: members, removals: removals)
            guard w <= Self.maxWork else {
                throw ValidationError("this simulation needs \(w) member-epochs of work (members²/2 + members × removals); the bound is \(Self.maxWork)")
            }
        }

        func run() throws {
            try runReportingErrors {
                var diverged = false
                try MarmotSimulation.run(members: members, removals: removals, seed: seed) { f in
                    if !f.converged || f.removedReaders > 0 || f.messageReaders != f.members - 1 { diverged = true }
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
                    StdIO.printLine(o.string)
                }
                if diverged {
                    throw CLIFailure("simulation found a divergence")
                }
            }
        }
    }
}
