import ArgumentParser
import Foundation
import InviteKit

/// `invitekit invite link create|list|requests|approve|decline|revoke`: an admin's side of Marmot
/// private group invite links (PROTOCOL §5.14.15; docs/cli.md §5). Changes go to the home's node
/// as ``NodeHomeRequest``s (run here when the home is free, else by `serve`); lists are read
/// without the home's lock.
extension InviteCommand.Link {
    /// The group and home every admin link command names.
    struct AdminOptions: ParsableArguments {
        @OptionGroup var home: GroupCommand.HomeOptions
        @Option(help: "The group id (either id, or a unique prefix).") var group: String
        @Option(help: "Give up waiting after S seconds (exit 4; the work stays queued).", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 60
    }

    /// A readable sentence for an admin's refusal; the code stays in brackets.
    static func explainAdmin(_ error: InviteKitError) -> CLIFailure {
        let why: String
        switch error.underlyingCode {
        case "not_admin": why = "only an admin of the group can manage its invite links"
        case "profile_mismatch": why = "invite links need a current-profile group"
        case "no_wss_relays": why = "an invite link names 1 to 8 wss:// relays: the group has none; give --relay wss://…"
        case "no_such_link": why = "no active invite link with that id in this group (see `invite link list`)"
        case "no_such_request", "request_not_arrived": why = "no such request in this group (see `invite link requests`)"
        case "invalid_expiry": why = "--expires-in must be a positive number of seconds"
        default:
            switch error.code {
            case .inviteRevoked: why = "the request is closed: its link was revoked, or it was already realized or withdrawn"
            case .inviteExpired: why = "the request's deadline passed"
            case .groupNotFound: why = "no such group in this home"
            default: return explain(error)
            }
        }
        return CLIFailure("\(why) [\(error.description)]", exitCode: error.code == .inviteInvalid ? 65 : 3)
    }

    /// Runs `body`, reporting an admin refusal in words (exit 3).
    static func reportingAdmin(_ body: () async throws -> Void) async throws {
        try await runReportingErrors {
            do { try await body() } catch let e as InviteKitError { throw explainAdmin(e) }
        }
    }

    /// Hands `request` to the home's node and waits until it settled (a Commit applied and its
    /// released events sent): its answer.
    static func perform(_ request: NodeHomeRequest, _ options: AdminOptions) async throws -> String {
        try await NodeInbox.perform(request, home: try options.home.intact(), settle: .decided, timeout: options.timeout,
                                    notTakenMessage: "not done: serve did not take the request")
    }

    /// An own Commit's outcome in words: confirmed, or why the command did not finish.
    static func reportCommit(_ id: String, what: String, _ options: AdminOptions) throws {
        let status = try NodeHome(try options.home.intact()).commitStatus(of: id) ?? .waiting
        NodeOutput.emit(options.home.json, ["event": id, "status": status.rawValue], text: "\(what): commit \(id) \(status.rawValue)")
        switch status {
        case .confirmed: return
        case .rolledBack: throw CLIFailure("the Commit was rolled back (another Commit took the epoch first): run the command again")
        case .waiting: throw CLIFailure("no relay acknowledged the Commit within \(Int(options.timeout)) s; it stays queued and is re-sent", exitCode: 4)
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create",
            abstract: "Create an invite link for a group (admins only, current profile): print its marmot1… code once its policy Commit is applied.")
        @OptionGroup var options: AdminOptions
        @Flag(help: "Approve valid requests automatically (default: an admin approves each).") var auto = false
        @Option(help: "The link expires S seconds from now (default: never).", transform: NumericOption.integer(1...Int64(Int32.max))) var expiresIn: Int64?
        @Option(help: "The name the preview shows (default: the group's).") var name: String?
        @Option(help: "The description the preview shows.") var description: String = ""
        @Option(name: .customLong("relay"), help: "A wss:// relay for the preview and requests; repeat for each (1 to 8; default: the group's wss:// relays).")
        var relays: [String] = []
        @Flag(help: "Also print the code as a QR code.") var qr = false

        func run() async throws {
            try await InviteCommand.Link.reportingAdmin {
                let code = try await InviteCommand.Link.perform(.createLink(group: options.group, automatic: auto, expiresIn: expiresIn, name: name,
                                                                            description: description, relays: relays), options)
                NodeOutput.emit(options.home.json, ["code": code], text: code)
                if qr { StdIO.write(Array(try InviteCommand.Link.qrCode(code).terminalString(invert: false).utf8)) }
            }
        }
    }

    struct ListLinks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list",
            abstract: "List a group's invite links this home made or holds, with their codes (read only: works while serve runs).")
        @OptionGroup var options: AdminOptions

        func run() async throws {
            try await InviteCommand.Link.reportingAdmin {
                let links = try NodeHome(try options.home.intact()).inviteLinks(in: options.group)
                if links.isEmpty && !options.home.json { StdIO.printError("no invite links in this group") }
                for l in links {
                    let approval = l.approvalMode == .automatic ? "automatic" : "manual"
                    let expires = l.expiresAt == 0 ? "never" : NodeOutput.time(Int64(l.expiresAt))
                    NodeOutput.emit(options.home.json, ["link": l.linkID, "state": l.state.rawValue, "approval": approval,
                                                        "expires_at": "\(l.expiresAt)", "code": l.code.bech32m],
                                    text: "\(l.linkID)  \(l.state.rawValue)  \(approval)  expires \(expires)\n  \(l.code.bech32m)")
                }
            }
        }
    }

    struct Requests: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "requests",
            abstract: "List a group's invite-link requests and their states (read only: works while serve runs).")
        @OptionGroup var options: AdminOptions

        func run() async throws {
            try await InviteCommand.Link.reportingAdmin {
                let requests = try NodeHome(try options.home.intact()).inviteRequests(in: options.group)
                if requests.isEmpty && !options.home.json { StdIO.printError("no invite-link requests in this group") }
                for r in requests {
                    let state = r.approving ? "approving" : r.state.rawValue
                    var fields = ["request": r.requestID, "link": r.linkID, "requester": NodeOutput.npub(r.requester.rawRepresentation),
                                  "state": state, "valid_until": "\(r.validUntil)"]
                    if r.timingUnverified { fields["timing_unverified"] = "true" }
                    fields["offer"] = r.offer.name
                    if let reason = r.offer.reason { fields["offer_problem"] = reason }
                    let offer = "  offer \(r.offer.name)" + (r.offer.reason.map { " (\($0))" } ?? "")
                    NodeOutput.emit(options.home.json, fields,
                                    text: "\(r.requestID)  \(state)  \(fields["requester"] ?? "")  link \(r.linkID.prefix(12))" + offer
                                        + (r.timingUnverified ? "  (arrived after the link expired: manual only)" : ""))
                }
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "approve",
            abstract: "Approve an invite-link request (admins only): add the requester; print the Commit once applied.")
        @OptionGroup var options: AdminOptions
        @Argument(help: "The request id (invite link requests).") var request: String

        func run() async throws {
            try await InviteCommand.Link.reportingAdmin {
                let id = try await InviteCommand.Link.perform(.decideLinkRequest(group: options.group, request: request, approve: true), options)
                try InviteCommand.Link.reportCommit(id, what: "approved", options)
            }
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "decline",
            abstract: "Decline an invite-link request (admins only): the requester is sent a declined status.")
        @OptionGroup var options: AdminOptions
        @Argument(help: "The request id (invite link requests).") var request: String

        func run() async throws {
            try await InviteCommand.Link.reportingAdmin {
                _ = try await InviteCommand.Link.perform(.decideLinkRequest(group: options.group, request: request, approve: false), options)
                NodeOutput.emit(options.home.json, ["request": request, "state": "declined"], text: "\(request) declined")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke",
            abstract: "Revoke an invite link (admins only): its open requests are cancelled and its preview deleted from its relays.")
        @OptionGroup var options: AdminOptions
        @Argument(help: "The link id (invite link list).") var link: String

        func run() async throws {
            try await InviteCommand.Link.reportingAdmin {
                let id = try await InviteCommand.Link.perform(.revokeLink(group: options.group, link: link), options)
                try InviteCommand.Link.reportCommit(id, what: "revoked", options)
            }
        }
    }
}
