import ArgumentParser
import Foundation
import InviteKit

/// `invitekit join URL`: publishes a KeyPackage and the join request, then waits until joined
/// (exit 0), refused (exit 3, with the user-facing reason) or timed out (exit 4). The node's
/// runtime does the relay work (here, or in the `serve` holding the home).
struct NodeJoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "join", abstract: "Join a group through a signed invite URL or a whistle://invite/… code and wait for the answer.")
    @Argument(help: "The invite URL (not with --resume).") var url: String?
    @Flag(help: "Wait for the answer to the latest pending join instead of starting one.") var resume = false
    @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).", transform: PathOption.parse) var home: String?
    @Option(help: "Give up after S seconds (exit 4).", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 120
    @Flag(help: "Send the request and return at once.") var noWait = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await runReportingErrors {
            let home = StoreHome.resolve(home)
            if resume == (url != nil) { throw CLIFailure("give the invite URL, or --resume", exitCode: 64) }
            let live = isatty(2) == 1
            if !noWait { StdIO.printError("waiting for approval…") }
            // On a terminal the status line is redrawn in place with the time waited.
            let timeout = self.timeout
            let ticker = live && !noWait ? Task {
                let started = ContinuousClock.now
                while !Task.isCancelled {
                    let waited = (ContinuousClock.now - started).components.seconds
                    StdIO.writeError(Array("\u{1B}[1A\u{1B}[2K\rinvitekit: waiting for approval… \(waited) s (of \(Int(timeout)))\n".utf8))
                    try? await Task.sleep(for: .seconds(1))
                }
            } : nil
            defer {
                ticker?.cancel()
                if live && !noWait { StdIO.writeError(Array("\u{1B}[2K\r".utf8)) }
            }
            let id = try await NodeInbox.perform(.join(url: url), home: home, settle: noWait ? .published : .decided, timeout: timeout,
                                                 notTakenMessage: "not sent: serve did not take the join within \(Int(timeout)) s")
            ticker?.cancel()
            let last = try NodeHome(home).pendingJoin(id)
            if noWait {
                // The answer may have come while the request was being published.
                if let j = last { report(j.state == .joined ? "joined" : "requested", join: j) }
                return
            }
            guard let join = last else { throw CLIFailure("the pending join \(id) is gone") }
            switch join.state {
            case .joined: report("joined", join: join)
            case .failed:
                report("refused", join: join)
                throw CLIFailure(InviteJoinError.ErrorType(rawValue: join.errorType ?? "").userFacingMessage, exitCode: 3)
            case .cancelled: throw CLIFailure("the join was cancelled")
            case .requested: throw CLIFailure("no answer within \(Int(timeout)) s (the join stays pending: `invitekit join --resume`)", exitCode: 4)
            }
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
