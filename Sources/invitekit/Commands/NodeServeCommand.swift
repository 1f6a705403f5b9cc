import ArgumentParser
import Foundation
import InviteKit
import InviteKitStore

/// `invitekit serve`: runs the node until SIGINT or SIGTERM. Polls its gift wraps (join
/// requests, decided durably), drains the outbound queue (Commits, then the Welcomes they
/// release after the relay's OK, join errors) and prints one line per thing it did.
struct NodeServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run this node until SIGINT/SIGTERM: answer join requests, publish commits, Welcomes and replies.")
    @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).") var home: String?
    @Option(help: "Also create a group named N first and print a signed invite for it (a shortcut for `group new` + `invite create`).") var newGroup: String?
    @Flag(help: "The printed invite is single use.") var singleUse = false
    @Option(help: "The printed invite expires after S seconds.", transform: NumericOption.integer(1...NumericOption.maxLifetime)) var expiresIn: Int64 = 86_400
    @Option(help: "Seconds between polls.", transform: NumericOption.seconds(NumericOption.pollInterval)) var interval: Double = 1
    @Option(help: "Stop after S seconds (for scripts).", transform: NumericOption.seconds(0...NumericOption.maxSeconds)) var duration: Double?
    @Flag(help: "Print JSON lines.") var json = false

    func run() async throws {
        try await runReportingErrors {
            let node = try InviteKitNode(home: StoreHome.resolve(home))
            let relays = try await node.defaultRelays()
            guard !relays.isEmpty else { throw CLIFailure("no default relays (run `invitekit init --relay URL`)") }
            let pool = RelayPool(urls: relays)
            let stop = StopFlag()
            let sources = [SIGINT, SIGTERM].map { sig -> DispatchSourceSignal in
                signal(sig, SIG_IGN)
                let s = DispatchSource.makeSignalSource(signal: sig)
                s.setEventHandler { stop.set() }
                s.resume()
                return s
            }
            let printer = Task { for await event in node.events { NodeServeCommand.print(event, json: json) } }
            if let newGroup {
                let group = try await node.createGroup(name: newGroup)
                let invite = try await node.createInvite(groupID: group.conversationID, singleUse: singleUse, expiresIn: expiresIn)
                line(["event": "group_created", "group": group.conversationID, "invite": invite.url],
                     text: "group \(group.conversationID) created; invite: \(invite.url)")
            }
            line(["event": "serving", "relays": relays.joined(separator: " ")], text: "serving on \(relays.joined(separator: " ")) (Ctrl-C stops)")
            let started = ContinuousClock.now
            let groupFeed = NodeGroupFeed(node: node, pool: pool)
            while !stop.isSet {
                // kind-445 events arrive on a live subscription; renewed when the set of groups changes.
                await groupFeed.refresh()
                if let made = try? await node.replenishKeyPackages(), made > 0 {
                    line(["event": "key_packages", "made": "\(made)"], text: "made \(made) KeyPackage(s) (keeping \(InviteKitNode.keyPackageLowWater) unused)")
                }
                let handed = await NodeInbox.drain(node, home: node.home)
                if handed > 0 { line(["event": "inbox", "requests": "\(handed)"], text: "took \(handed) request(s) from the inbox") }
                if let duration, ContinuousClock.now - started > .milliseconds(Int(duration * 1000)) { break }
                do {
                    try await node.catchUp(pool: pool, timeout: .seconds(5))
                    let writes = try await node.flushOutbound(to: pool.relays)
                    if writes > 0 { line(["event": "published", "writes": "\(writes)"], text: "published \(writes) event write(s)") }
                } catch let error as StoreError {
                    throw error
                } catch {
                    line(["event": "relay_error", "detail": "\(error)"], text: "relay error: \(error)")
                }
                try? await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            }
            await groupFeed.stop()
            await node.shutdown()
            await printer.value
            await pool.close()
            withExtendedLifetime(sources) {}
            line(["event": "stopped"], text: "stopped")
        }
    }

    private func line(_ fields: [String: String], text: String) { NodeOutput.emit(json, fields, text: text) }

    static func print(_ event: NodeEvent, json: Bool) {
        let text: String
        switch event {
        case .joinRequestDecided(let id, let outcome): text = "join request \(id.prefix(12))…: \(outcome)"
        case .approvalRequested(let g, let m, _):
            let npub = NodeOutput.npub(m)
            text = "join request from \(npub) to \(g): waiting for approval (invitekit invite approve --group \(g) --member \(npub))"
        case .memberAdded(let g, let m): text = "added \(Hex.encode(m).prefix(16))… to \(g.prefix(16))…"
        case .memberRemoved(let g, let m): text = "removed \(Hex.encode(m).prefix(16))… from \(g.prefix(16))…"
        case .commitRolledBack(let g, let c): text = "commit \(c.prefix(12))… rolled back in \(g.prefix(16))…"
        case .joined(let g, let epoch): text = "joined \(g.prefix(16))… at epoch \(epoch)"
        case .joinFailed(let e): text = "join failed: \(e.userFacingMessage)"
        case .message(let m): text = "message \(m.eventID.prefix(12))…: \(m.status.rawValue)"
        }
        NodeOutput.emit(json, ["event": "node", "detail": text], text: text)
    }
}

/// Set from a signal handler's queue, read by the serve loop.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
