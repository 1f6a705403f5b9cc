import ArgumentParser
import Foundation
import InviteKit

/// `invitekit invite link …`: the requester's side of Marmot private group invite links
/// (PROTOCOL §5.14.16; docs/cli.md §5): preview a `marmot1…` code (sends nothing), join after
/// explicit consent, list, refresh and withdraw requests, and draw the code as a QR.
extension InviteCommand {
    struct Link: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link",
            abstract: "Marmot private group invite links (marmot1… codes): preview, join, status, refresh, withdraw, qr; admins: create, list, requests, approve, decline, revoke.",
            subcommands: [Preview.self, Join.self, Status.self, Refresh.self, Withdraw.self, QR.self,
                          Create.self, ListLinks.self, Requests.self, Approve.self, Decline.self, Revoke.self])

        /// A readable sentence for each refusal the link commands report; the code stays in brackets.
        static func explain(_ error: InviteKitError) -> CLIFailure {
            let why: String
            switch error.underlyingCode {
            case "invite_link_expired": why = "this invite link has expired; ask an admin of the group for a new one"
            case "invite_link_preview_not_found":
                why = "no preview of this link is on its relays: its admins revoked it (or it never existed); ask for a new link"
            case "invite_link_relays_unreachable": why = "none of the link's relays answered; check the connection and try again"
            case "invite_link_preview_invalid": why = "the link's preview does not verify against this code; nothing is shown"
            case "invite_link_declined": why = "an admin of the group declined the request"
            case "invite_link_retired": why = "an admin reported that the link was revoked; ask for a new link"
            case "invite_request_expired": why = "the request's deadline passed without an answer; preview the link and join again"
            case "invite_request_withdrawn": why = "the request was withdrawn"
            case "invite_link_request_undeliverable":
                why = "no relay took the request or the KeyPackage it offers, so no admin can see it; check the relays, then join again"
            case "invite_request_closed": why = "the request is closed (joined or withdrawn)"
            case "invite_capacity": why = "the request had its last refresh (revision 7); join again for a new request"
            case "invalid_invite_code": why = "this is not a valid marmot1… invite link code"
            default: return CLIFailure(CLIMessages.describe(error), exitCode: error.code == .timedOut ? 4 : 3)
            }
            return CLIFailure("\(why) [\(error.description)]", exitCode: error.code == .inviteInvalid ? 65 : 3)
        }

        /// Runs `body`, reporting a link refusal in words (exit 3; 65 for a malformed code).
        static func reporting(_ body: () async throws -> Void) async throws {
            try await runReportingErrors {
                do { try await body() } catch let e as InviteKitError { throw explain(e) }
            }
        }

        static func describe(_ preview: InvitePreviewV1) -> [String: String] {
            var fields = ["name": preview.name, "description": preview.description,
                          "approval": preview.approvalMode == .automatic ? "automatic" : "manual",
                          "expires_at": preview.expiresAt == 0 ? "never" : "\(preview.expiresAt)",
                          "link": Hex.encode(preview.linkID), "preview_hash": Hex.encode(preview.previewHash)]
            if preview.imageType != .none { fields["image"] = "\(preview.imageType == .png ? "png" : "jpeg"), \(preview.image.count) bytes" }
            return fields
        }

        static func printPreview(_ preview: InvitePreviewV1, json: Bool) {
            let f = describe(preview)
            let text = ["Group: \(TerminalText.escape(preview.name))",
                        preview.description.isEmpty ? nil : "About: \(TerminalText.escape(preview.description))",
                        "Approval: \(f["approval"] ?? "")" + (preview.approvalMode == .automatic ? " (requests are admitted without an admin's review)" : " (an admin reviews each request)"),
                        "Expires: \(preview.expiresAt == 0 ? "never" : NodeOutput.time(Int64(preview.expiresAt)))",
                        f["image"].map { "Image: \($0) (not rendered here)" },
                        "Unconfirmed: this is what the link's admins wrote; nothing was sent to open it.",
                        "Joining sends a request the group's admins see, with your account key."].compactMap { $0 }
            NodeOutput.emit(json, f, text: text.joined(separator: "\n"))
        }

        static func report(_ join: InviteLinkJoin, json: Bool) {
            var fields = ["request": join.requestID, "status": join.status.rawValue, "revision": "\(join.revision)",
                          "valid_until": "\(join.validUntil)", "name": join.preview.name]
            if let g = join.groupID { fields["group"] = g }
            if let f = join.failure { fields["failure"] = f }
            if let d = join.delivery { fields["delivery"] = d.rawValue }
            let notices = join.notices.map { "\($0.outcome) by \(NodeOutput.npub(Hex.decode($0.author) ?? []))" }
            if !notices.isEmpty { fields["notices"] = notices.joined(separator: "; ") }
            let text = "\(join.requestID)  \(join.status.rawValue)  \(TerminalText.escape(join.preview.name))  revision \(join.revision)"
                + (join.groupID.map { "  group \($0)" } ?? "") + (join.failure.map { "  last refusal \($0)" } ?? "")
                + (notices.isEmpty ? "" : "  (\(notices.joined(separator: "; ")))")
            NodeOutput.emit(json, fields, text: text)
        }

        /// `code` (checked) as a QR of its uppercase form; one that does not fit is refused.
        static func qrCode(_ code: String) throws -> QRCode {
            let text = code.trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try InviteKitNode.decodeInviteLinkCode(text)
            let upper = text.uppercased()
            guard upper.utf8.count <= QRCode.maxPayloadBytes, let qr = try? QRCode(text: upper) else {
                throw CLIFailure("this code is \(upper.utf8.count) characters, too long for a QR code; share the text instead", exitCode: 3)
            }
            return qr
        }

        /// Opens the home's node, runs `body` with its runtime going, then shuts it down.
        static func withRunningNode<T>(_ home: StoreHome, _ body: (InviteKitNode) async throws -> T) async throws -> T {
            try home.requireIntact()
            let node = try InviteKitNode(home: home)
            let runtime = node.runInBackground()
            do {
                let value = try await body(node)
                await node.shutdown()
                _ = await runtime.result
                return value
            } catch {
                await node.shutdown()
                _ = await runtime.result
                throw error
            }
        }

        /// Waits until the newest request, refresh or withdrawal of `requestID` was acknowledged
        /// by a relay of the code (or `timeout` passed: it stays queued for the next run).
        static func awaitDelivery(_ node: InviteKitNode, requestID: String, timeout: Double) async throws -> InviteLinkJoin {
            let deadline = ContinuousClock.now + .seconds(timeout)
            var join = try await node.inviteLinkJoin(requestID)
            while join.delivery != .acked, join.delivery != .failed, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                join = try await node.inviteLinkJoin(requestID)
            }
            return join
        }
    }
}

extension InviteCommand.Link {
    struct Preview: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "preview",
            abstract: "Show an invite link's preview: fetched from the code's relays and decrypted. Sends no request and stores nothing.")
        @Argument(help: "The marmot1… code.") var code: String
        @Option(help: "Give up on the relays after S seconds.", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 10
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            try await InviteCommand.Link.reporting {
                let opened = try await InviteKitNode.previewInviteLink(code: code, timeout: .seconds(timeout))
                InviteCommand.Link.printPreview(opened.preview, json: json)
            }
        }
    }

    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "join",
            abstract: "Preview an invite link, then, with explicit consent (--yes, or y at the prompt), send a join request and wait for the Welcome.")
        @Argument(help: "The marmot1… code.") var code: String
        @Flag(help: "Consent to sending the join request without asking.") var yes = false
        @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).", transform: PathOption.parse) var home: String?
        @Option(help: "The request's deadline in seconds from now (at most 30 days).",
                transform: NumericOption.integer(1...Int64(InviteLinkLimits.maxDeadlineAhead))) var validFor: Int64 = InviteKitNode.defaultInviteLinkRequestValidity
        @Option(help: "Give up waiting after S seconds (exit 4; the request stays open).", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 120
        @Flag(help: "Return once a relay took the request.") var noWait = false
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            try await InviteCommand.Link.reporting {
                let joined = try await InviteCommand.Link.withRunningNode(StoreHome.resolve(home)) { node -> InviteLinkJoin in
                    let opened = try await node.previewInviteLink(code: code)
                    InviteCommand.Link.printPreview(opened.preview, json: json)
                    try requireConsent()
                    let started = try await node.joinByInviteLink(code: code, preview: opened.preview, validFor: validFor)
                    if noWait { return try await InviteCommand.Link.awaitDelivery(node, requestID: started.requestID, timeout: timeout) }
                    if !json { StdIO.printError("request \(started.requestID) sent; waiting for an admin…") }
                    return try await node.waitForInviteLinkJoin(started.requestID, timeout: .seconds(timeout))
                }
                InviteCommand.Link.report(joined, json: json)
            }
        }

        /// The user's explicit Join: `--yes`, or `y` typed at a terminal. Anything else sends nothing.
        private func requireConsent() throws {
            if yes { return }
            guard isatty(0) == 1 else {
                throw CLIFailure("not sent: joining needs explicit consent; run again with --yes to send the request", exitCode: 64)
            }
            StdIO.writeError(Array("Send a join request to this group's admins? [y/N] ".utf8))
            guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw CLIFailure("not sent: no consent given", exitCode: 3)
            }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status",
            abstract: "List this home's joins through invite links (read only: works while serve runs).")
        @OptionGroup var options: GroupCommand.HomeOptions

        func run() throws {
            try runReportingErrors {
                let joins = try NodeHome(try options.intact()).inviteLinkJoins()
                if joins.isEmpty && !options.json { StdIO.printError("no joins through invite links") }
                for j in joins { InviteCommand.Link.report(j, json: options.json) }
            }
        }
    }

    /// A request this home sent, and how long a command sending its next record waits.
    struct RequestOptions: ParsableArguments {
        @OptionGroup var home: GroupCommand.HomeOptions
        @Argument(help: "The request id (invite link status).") var request: String
        @Option(help: "Wait up to S seconds for a relay to take it.", transform: NumericOption.seconds(NumericOption.timeout)) var timeout: Double = 30

        /// Makes the request's next record with `record` on the home's running node, waits until
        /// a relay of the code took it (or `timeout`), and prints the join.
        func send(_ record: (InviteKitNode, String) async throws -> InviteLinkJoin) async throws {
            try await InviteCommand.Link.reporting {
                let join = try await InviteCommand.Link.withRunningNode(try home.intact()) { node in
                    let sent = try await record(node, request)
                    return try await InviteCommand.Link.awaitDelivery(node, requestID: sent.requestID, timeout: timeout)
                }
                InviteCommand.Link.report(join, json: home.json)
            }
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "refresh",
            abstract: "Send the next revision of a request with a fresh KeyPackage (when the offered one went stale).")
        @OptionGroup var options: RequestOptions

        func run() async throws {
            try await options.send { node, request in try await node.refreshInviteLinkRequest(request) }
        }
    }

    struct Withdraw: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "withdraw",
            abstract: "Withdraw a request: the signed withdrawal goes to the link's inbox (it never undoes a join).")
        @OptionGroup var options: RequestOptions

        func run() async throws {
            try await options.send { node, request in try await node.withdrawInviteLinkRequest(request) }
        }
    }

    /// The code as a QR: its uppercase form (the same code, QR alphanumeric mode), checked to fit
    /// before it is drawn; a code that does not fit is refused, never truncated
    /// (`transports/nostr-invite-links.md` "Long code").
    struct QR: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "qr",
            abstract: "Print a marmot1… code as a QR code (Unicode half blocks), or write it as a PNG.")
        @Argument(help: "The marmot1… code.") var code: String
        @Option(help: "Write a PNG here instead of printing.", transform: PathOption.parse) var png: String?
        @Option(help: "PNG pixels per module (1...64).", transform: NumericOption.integer(1...64)) var scale: Int = 8
        @Flag(help: "Draw dark modules as ink (for light terminal backgrounds).") var invert = false

        func run() async throws {
            try await InviteCommand.Link.reporting {
                let qr = try InviteCommand.Link.qrCode(code)
                if let png {
                    try SafeFile.write(try qr.pngData(scale: scale), to: png)
                } else {
                    StdIO.write(Array(qr.terminalString(invert: invert).utf8))
                }
            }
        }
    }
}
