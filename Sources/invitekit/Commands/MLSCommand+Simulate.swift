import ArgumentParser
import Foundation
import InviteKit

extension MLSCommand {
    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "simulate",
            abstract: "Run a whole group life on the RFC 9420 engine (Marmot); print each epoch's facts (a readable line, or JSON with --json) and a summary.")
        @Option(name: .customLong("members"), help: "Group size after the adds (1...2000; every member processes every commit, so time grows with N²).", transform: NumericOption.integer(1...2000)) var members: Int
        @Option(name: .customLong("removals"), help: "Admin removals after the adds.", transform: NumericOption.integer(0...2000)) var removals: Int = 0
        @Option(name: .customLong("seed"), help: "Seed for replayable randomness.", transform: NumericOption.integer(UInt64.min...UInt64.max)) var seed: UInt64 = 1
        @Flag(help: "Print one JSON line of facts per epoch (and no summary).") var json = false

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
                var epochs = 0
                try MarmotSimulation.run(members: members, removals: removals, seed: seed) { f in
                    if !f.converged || f.removedReaders > 0 || f.messageReaders != f.members - 1 { diverged = true }
                    epochs += 1
                    if !json {
                        StdIO.printLine(Self.readable(f))
                        return
                    }
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
                if !json {
                    StdIO.printLine("\(members) members, \(removals) removals, seed \(seed): \(epochs) epochs, "
                                    + (diverged ? "DIVERGED" : "every member converged and read every message"))
                }
                if diverged {
                    throw CLIFailure("simulation found a divergence")
                }
            }
        }

        /// One epoch for a person: the same facts as the JSON line, in words.
        static func readable(_ f: MarmotSimulation.EpochFact) -> String {
            let readers = "\(f.messageReaders)/\(f.members - 1) read the message"
            let removed = f.removedReaders > 0 ? ", \(f.removedReaders) removed member(s) read it too" : ""
            return "epoch \(f.epoch)  \(f.action)  \(f.members) members  commit \(f.commitBytes) B in \(String(format: "%.1f", f.commitMillis)) ms  "
                + "\(f.welcomes) welcome(s)  \(f.converged ? "converged" : "NOT converged")  \(readers)\(removed)  \(f.fingerprint.prefix(16))"
        }
    }
}
