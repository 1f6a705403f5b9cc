import ArgumentParser
import Foundation
import InviteKit
import InviteKitStore

/// `invitekit join URL`: publishes a KeyPackage and the join request, then waits until joined
/// (exit 0), refused (exit 3, with the user-facing reason) or timed out (exit 4).
struct NodeJoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "join", abstract: "Join a group through a signed invite URL or a whistle://invite/… code and wait for the answer.")
    @Argument(help: "The invite URL (not with --resume).") var url: String?
    @Flag(help: "Wait for the answer to the latest pending join instead of starting one.") var resume = false
    @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).") var home: String?
    @Option(help: "Give up after S seconds (exit 4).", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 120
    @Flag(help: "Send the request and return at once.") var noWait = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await runReportingErrors {
            let node = try InviteKitNode(home: StoreHome.resolve(home))
            let join: PendingJoinRecord
            if resume {
                guard let latest = try node.store.read({ tx in try tx.pendingJoins.active() }).max(by: { $0.createdAt < $1.createdAt }) else {
                    throw CLIFailure("no pending join to resume")
                }
                join = latest
            } else {
                guard let url else { throw CLIFailure("give the invite URL, or --resume", exitCode: 64) }
                join = try await node.startJoin(invite: url)
            }
            let pool = RelayPool(urls: join.relays)
            defer { Task { await pool.close() } }
            try await node.flushOutbound(to: pool.relays)
            if noWait { return report("requested", join: join) }
            // On a terminal the status line is redrawn in place with the time waited; elsewhere
            // (logs, pipes) it is printed once.
            let live = isatty(2) == 1
            StdIO.printError("waiting for approval…")
            let started = ContinuousClock.now
            let deadline = started + .milliseconds(Int(timeout * 1000))
            defer { if live { StdIO.writeError(Array("\u{1B}[2K\r".utf8)) } }
            while ContinuousClock.now < deadline {
                if live {
                    let waited = (ContinuousClock.now - started).components.seconds
                    StdIO.writeError(Array("\u{1B}[1A\u{1B}[2K\rinvitekit: waiting for approval… \(waited) s (of \(Int(timeout)))\n".utf8))
                }
                try await node.catchUp(pool: pool, timeout: .seconds(5))
                try await node.flushOutbound(to: pool.relays)
                if let now = try node.store.read({ tx in try tx.pendingJoins.get(id: join.id) }) {
                    switch now.state {
                    case .joined: return report("joined", join: now)
                    case .failed:
                        let type = InviteJoinError.ErrorType(rawValue: now.errorType ?? "")
                        report("refused", join: now)
                        throw CLIFailure(type.userFacingMessage, exitCode: 3)
                    case .requested, .cancelled: break
                    }
                }
                try? await Task.sleep(for: .seconds(1))
            }
            throw CLIFailure("no answer within \(Int(timeout)) s", exitCode: 4)
        }
    }

    private func report(_ status: String, join: PendingJoinRecord) {
        if json {
            var o = JSONOutput()
            o.add("status", status)
            o.add("join", join.id)
            if let g = join.groupID { o.add("group", g) }
            if let e = join.errorType { o.add("error_type", e) }
            if let r = join.errorReason { o.add("reason", r) }
            StdIO.printLine(o.string)
        } else {
            StdIO.printLine(status == "joined" ? "joined group \(join.groupID ?? "?")" : status)
        }
    }
}
