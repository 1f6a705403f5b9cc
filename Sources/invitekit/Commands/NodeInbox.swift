import Foundation
import InviteKit

/// How a node command hands its request to the home (``NodeHome/perform(_:settle:timeout:eventBudget:)``):
/// run by this process's own node when the home is free, else by the `serve` holding it, through
/// the home's inbox (docs/node.md, "The inbox"). This only turns the hand-off's own failures into
/// the CLI's words and exit codes (4: not done in time).
enum NodeInbox {
    /// The request's answer (an event id, a tag, a URL, a count), once settled as `settle` says
    /// or at the end of `timeout` seconds. `notTaken` runs, and `notTakenMessage` is the error,
    /// when `serve` never took the request (nothing was done).
    static func perform(_ request: NodeHomeRequest, home: StoreHome, settle: NodeHomeSettle = .answered, timeout: Double,
                        budget: EventBudget = .standard, notTakenMessage: String,
                        notTaken: () -> Void = {}) async throws -> String {
        let limit = try NodeOutput.duration(seconds: timeout)
        do {
            return try await NodeHome(home).perform(request, settle: settle, timeout: limit, eventBudget: budget)
        } catch {
            switch (error.code, error.underlyingCode) {
            case (_, "request_not_taken"?):
                notTaken()
                throw CLIFailure(notTakenMessage, exitCode: 4)
            case (_, "request_abandoned"?):
                throw CLIFailure("serve took the request and stopped before answering; check `group read` before retrying", exitCode: 4)
            case (.storeLocked, _):
                throw CLIFailure("another invitekit process is using \(home.directory); try again", exitCode: 4)
            default: throw error
            }
        }
    }

    /// A request that only changes the home (an invite, a revocation, a decline): its answer,
    /// within 30 s.
    static func answer(_ request: NodeHomeRequest, home: StoreHome) async throws -> String {
        try await perform(request, home: home, timeout: 30, notTakenMessage: "not done: serve did not take the request within 30 s")
    }
}
