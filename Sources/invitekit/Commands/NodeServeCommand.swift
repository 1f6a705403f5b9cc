import ArgumentParser
import Foundation
import InviteKit
import InviteKitRelay
import InviteKitMLS

/// `invitekit serve`: runs the node (``InviteKitNode/run()``) until SIGINT or SIGTERM, takes
/// the other commands' requests from the home's inbox, and prints one line per event.
struct NodeServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run this node until SIGINT/SIGTERM: answer join requests, publish commits, Welcomes and replies.")
    @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).", transform: PathOption.parse) var home: String?
    @Option(help: "Also create a group named N first and print a signed invite for it (a shortcut for `group new` + `invite create`).") var newGroup: String?
    @Flag(help: "The printed invite is single use.") var singleUse = false
    @Option(help: "The printed invite expires after S seconds.", transform: NumericOption.integer(1...NumericOption.maxLifetime)) var expiresIn: Int64 = 86_400
    @Option(help: "Seconds between polls.", transform: NumericOption.seconds(NumericOption.pollInterval)) var interval: Double = 1
    @Option(help: "Stop after S seconds (for scripts).", transform: NumericOption.seconds(0...NumericOption.maxSeconds)) var duration: Double?
    @OptionGroup var eventBudget: EventBudgetOption
    @Flag(help: "Join groups whose admin added this node by its npub (a Welcome without a pending join).") var acceptWelcomes = false
    @Flag(help: "Print JSON lines.") var json = false

    func run() async throws {
        try await runReportingErrors {
            guard interval.isFinite, interval > 0, interval <= 3600 else { throw CLIFailure("--interval must be between 0 and 3600 seconds", exitCode: 64) }
            let stopAt = try duration.map { try NodeOutput.deadline(after: $0) }
            let resolved = StoreHome.resolve(home)
            let json = self.json
            // Each relay's connection status, once per change (docs/relays.md §1): a relay that keeps
            // dropping is reported once, not silently retried.
            let observed = RelayClientConfiguration(statusObserver: { url, status in NodeServeCommand.print(relay: url, status, json: json) })
            let served = NodeHome(resolved)
            // Another command holding the home is waited for (up to 30 s); a second serve is refused.
            let node = try await served.openNode(configuration: .init(idleInterval: .milliseconds(Int64(interval * 1000)),
                                                                                            eventBudget: try eventBudget.budget,
                                                                                            acceptsUnsolicitedWelcomes: acceptWelcomes,
                                                                                            connector: { WebSocketRelayClient(url: $0, configuration: observed) }))
            let relays = try await node.defaultRelays()
            guard !relays.isEmpty else { throw CLIFailure("no default relays (run `invitekit init --relay URL`)") }
            // A home written before relay URLs were checked may hold one nothing can connect to.
            let unusable = relays.filter { !RelayURL.isValid($0) }
            guard unusable.count < relays.count else {
                throw CLIFailure("no usable relay: \(unusable.map(TerminalText.escape).joined(separator: ", ")) (ws:// or wss:// with a host; run `invitekit init --relay URL`)")
            }
            let events = node.events()
            if let newGroup {
                let group = try await node.createGroup(name: newGroup)
                let invite = try await node.createInvite(groupID: group.id, singleUse: singleUse, expiresIn: expiresIn)
                line(["event": "group_created", "group": group.id, "invite": invite.url], text: "group \(group.id) created; invite: \(invite.url)")
            }
            let printer = Task { for await event in events { NodeServeCommand.print(event, json: json) } }
            // The node runs and takes the other commands' requests from the home's inbox until cancelled.
            let listed = relays.joined(separator: " ")
            let runner = Task {
                try await served.serve(node, onReady: {
                    NodeOutput.emit(json, ["event": "serving", "relays": listed], text: "serving on \(listed) (Ctrl-C stops)")
                }, onRequests: { handed in
                    NodeOutput.emit(json, ["event": "inbox", "requests": "\(handed)"], text: "took \(handed) request(s) from the inbox")
                })
            }
            let stop = StopSignal()
            let sources = [SIGINT, SIGTERM].map { sig -> DispatchSourceSignal in
                signal(sig, SIG_IGN)
                let s = DispatchSource.makeSignalSource(signal: sig)
                s.setEventHandler { runner.cancel() }
                s.resume()
                return s
            }
            if let stopAt { stop.timer = Task { try? await Task.sleep(until: stopAt); runner.cancel() } }
            let outcome = await runner.result
            await node.shutdown()
            await printer.value
            withExtendedLifetime(sources) {}
            stop.timer?.cancel()
            if case .failure(let error) = outcome { throw error }
            line(["event": "stopped"], text: "stopped")
        }
    }

    private func line(_ fields: [String: String], text: String) { NodeOutput.emit(json, fields, text: text) }

    static func print(_ event: NodeEvent, json: Bool) {
        let text: String
        switch event {
        case .running(let relays): text = "node running on \(relays.joined(separator: " "))"
        case .joinRequestDecided(let id, _, let outcome): text = "join request \(id.prefix(12))…: \(outcome)"
        case .approvalRequested(let g, let m, _):
            let npub = NIP19.npub(m)
            text = "join request from \(npub) to \(g): waiting for approval (invitekit invite approve --group \(g) --member \(npub))"
        case .memberAdded(let g, let m): text = "added \(m.hex.prefix(16))… to \(g.prefix(16))…"
        case .memberRemoved(let g, let m): text = "removed \(m.hex.prefix(16))… from \(g.prefix(16))…"
        case .removedFromGroup(let g): text = "this node was removed from \(g.prefix(16))…"
        case .commitConfirmed(let g, let c, let epoch): text = "commit \(c.prefix(12))… confirmed in \(g.prefix(16))…: epoch \(epoch)"
        case .commitRolledBack(let g, let c, _): text = "commit \(c.prefix(12))… rolled back in \(g.prefix(16))…"
        case .branchReplaced(let g, let fork, let epoch): text = "branch of \(g.prefix(16))… replaced from epoch \(fork) (convergence): epoch \(epoch)"
        case .convergencePassResolved(let g, let n, let epoch): text = "convergence pass of \(g.prefix(16))… resolved \(n) commit(s): epoch \(epoch)"
        case .joined(_, let g, let epoch): text = "joined \(g.prefix(16))… at epoch \(epoch)"
        case .joinRefused(_, let e, _): text = "join failed: \(e.userFacingMessage)"
        case .welcomeFailed(let id, let error): text = "welcome for join \(id.prefix(12))… not used (the join stays pending): \(error)"
        case .messageReceived(let m): text = "message \(m.eventID.prefix(12))… from \(NodeOutput.npub(m.sender))"
        case .messageQueued(let m): text = "message \(m.eventID.prefix(12))…: queued"
        case .messagesExpired(let g, let n): text = "\(n) message(s) of \(g.prefix(16))… expired (retention)"
        case .messageDelivered(_, let id): text = "message \(id.prefix(12))…: acked"
        case .messageFailed(_, let id): text = "message \(id.prefix(12))…: failed"
        case .published(let writes): text = "published \(writes) event write(s)"
        case .relayProblem(let relay, let error): text = "relay error\(relay.isEmpty ? "" : " (\(relay))"): \(error)"
        case .eventRejected(let id, let error): text = "event \(id.prefix(12))… not used: \(error)"
        case .bufferedEventsEvicted(let g, let n): text = "\(n) buffered event(s) of \(g.prefix(16))… dropped (buffer full)"
        case .groupProfileChanged(let g, let name, _): text = "\(g.prefix(16))… renamed or described: now \"\(name)\""
        case .adminsChanged(let g, let admins): text = "admins of \(g.prefix(16))…: \(admins.map { NIP19.npub($0) }.joined(separator: " "))"
        case .groupRelaysChanged(let g, let relays): text = "\(g.prefix(16))… moved to \(relays.joined(separator: " "))"
        case .groupDisbanded(let g): text = "\(g.prefix(16))… was disbanded"
        case .commitRefused(let g, let c, let error): text = "commit \(c.prefix(12))… refused in \(g.prefix(16))…: \(error)"
        case .inviteLinkCreated(let g, let link): text = "invite link \(link.prefix(12))… active in \(g.prefix(16))…"
        case .inviteLinkRevoked(let g, let link, let n): text = "invite link \(link.prefix(12))… revoked in \(g.prefix(16))…: \(n) request(s) cancelled"
        case .inviteRequestReceived(let g, let id, let m): text = "invite request \(id.prefix(12))… from \(NIP19.npub(m)) to \(g.prefix(16))… (invitekit invite link approve --group \(g) \(id))"
        case .inviteRequestDecided(let g, let id, let outcome): text = "invite request \(id.prefix(12))… in \(g.prefix(16))…: \(outcome)"
        case .inviteLinkRequestQueued, .inviteLinkWithdrawn, .inviteLinkStatus, .inviteLinkJoined, .inviteLinkWelcomeRefused:
            text = event.description  // invite links, joiner side (PROTOCOL §5.14.16)
        }
        NodeOutput.emit(json, ["event": "node", "detail": text], text: text)
    }

    /// `relay URL: connected`, `… unreachable (reason); retrying in S s`, `… disconnected (reason)`.
    static func print(relay url: String, _ status: RelayConnectionStatus, json: Bool) {
        let (name, reason, retry): (String, String?, Duration?)
        switch status {
        case .connected: (name, reason, retry) = ("connected", nil, nil)
        case .reconnecting(_, let after, let why): (name, reason, retry) = ("reconnecting", why, after)
        case .disconnected(let why): (name, reason, retry) = ("disconnected", why, nil)
        }
        var fields = ["event": "relay", "relay": url, "status": name]
        if let reason { fields["reason"] = reason }
        let seconds = retry.map { String(format: "%.1f", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
        if let seconds { fields["retry_in"] = seconds }
        let text: String
        switch status {
        case .connected: text = "relay \(url): connected"
        case .reconnecting: text = "relay \(url): unreachable (\(reason ?? "")); retrying with backoff, next in \(seconds ?? "?") s"
        case .disconnected: text = "relay \(url): disconnected (\(reason ?? ""))"
        }
        NodeOutput.emit(json, fields, text: text)
    }
}

/// The `--duration` timer of one serve.
final class StopSignal: @unchecked Sendable {
    // Safe: set once before any other task reads it, read after they ended.
    var timer: Task<Void, Never>?
}
