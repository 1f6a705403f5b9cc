import Foundation
import InviteKit
import InviteKitCrypto
import InviteKitMLS
import InviteKitStore

/// The node actions a CLI process may run on a home. Run directly when the home's lock is free
/// (or once another command released it); handed to the `serve` holding it otherwise: one JSON
/// file each in `HOME/inbox/` (0600), answered by a `.done` file holding the answer (or
/// `error: …`). One dispatcher (``run(_:on:)``) serves both (docs/node.md, "The inbox").
enum NodeInbox {
    enum Request {
        case send(group: String, text: String)
        case revoke(group: String)
        case invite(group: String, singleUse: Bool, expiresIn: Int64?, format: StoredInvite.Format)
        case approve(group: String, member: String)
        case decline(group: String, member: String)
        case add(group: String, member: String)
        case remove(group: String, member: String)
        case update(group: String)
        case leave(group: String)
        /// Starts a join through an invite URL, or with `nil` names the latest pending join.
        case join(url: String?)

        /// The group the request names (either of its ids, or a unique prefix).
        var group: String {
            switch self {
            case .send(let g, _), .revoke(let g), .invite(let g, _, _, _), .approve(let g, _), .decline(let g, _), .add(let g, _),
                 .remove(let g, _), .update(let g), .leave(let g):
                return g
            case .join: return ""
            }
        }

        /// A request that may wait on relays under `serve`: a multi-member add (as many confirmed
        /// Commits as the event budget needs), and any membership change, which waits for the
        /// group's Commit in flight before it builds its own (`InviteKitNode.removeMember`).
        var isLong: Bool {
            switch self {
            case .add, .remove, .update, .approve: return true
            default: return false
            }
        }

        var fields: [String: String] {
            switch self {
            case .send(let g, let text): return ["op": "send", "group": g, "text": text]
            case .revoke(let g): return ["op": "revoke", "group": g]
            case .invite(let g, let singleUse, let expiresIn, let format):
                var f = ["op": "invite", "group": g, "single_use": singleUse ? "true" : "false", "format": format.rawValue]
                if let expiresIn { f["expires_in"] = "\(expiresIn)" }
                return f
            case .add(let g, let member): return ["op": "add", "group": g, "member": member]
            case .remove(let g, let member): return ["op": "remove", "group": g, "member": member]
            case .update(let g): return ["op": "update", "group": g]
            case .leave(let g): return ["op": "leave", "group": g]
            case .approve(let g, let member): return ["op": "approve", "group": g, "member": member]
            case .decline(let g, let member): return ["op": "decline", "group": g, "member": member]
            case .join(let url): return url.map { ["op": "join", "url": $0] } ?? ["op": "join"]
            }
        }

        init(fields f: [String: String]) throws {
            if f["op"] == "join" {
                self = .join(url: f["url"])
                return
            }
            guard let g = f["group"] else { throw CLIFailure("malformed request") }
            switch f["op"] {
            case "send":
                guard let text = f["text"] else { throw CLIFailure("malformed request") }
                self = .send(group: g, text: text)
            case "revoke": self = .revoke(group: g)
            case "invite":
                guard let format = StoredInvite.Format(rawValue: f["format"] ?? "signed") else { throw CLIFailure("malformed request") }
                self = .invite(group: g, singleUse: f["single_use"] == "true", expiresIn: f["expires_in"].flatMap { Int64($0) }, format: format)
            case "add", "remove", "approve", "decline":
                guard let m = f["member"] else { throw CLIFailure("malformed request") }
                switch f["op"] {
                case "add": self = .add(group: g, member: m)
                case "remove": self = .remove(group: g, member: m)
                case "approve": self = .approve(group: g, member: m)
                default: self = .decline(group: g, member: m)
                }
            case "update": self = .update(group: g)
            case "leave": self = .leave(group: g)
            default: throw CLIFailure("malformed request")
            }
        }
    }

    /// What became of a request.
    enum Handled {
        /// Run here or by `serve`: its answer (an event id, a tag, a URL, a count).
        case done(String)
        /// `serve` never took it and it was withdrawn: nothing was done.
        case notTaken
    }

    /// Runs `request` on a node: this process's own when it can take the home's lock (waiting
    /// while another command holds it, up to `deadline`), else the running `serve`'s through the
    /// inbox. `afterwards` runs on this process's node while it still holds the lock (the
    /// runtime publishing what the request queued); with `serve`, serve publishes.
    static func perform(_ request: Request, home: StoreHome, deadline: ContinuousClock.Instant, budget: EventBudget = .standard,
                        afterwards: (InviteKitNode, String) async throws -> Void = { _, _ in }) async throws -> Handled {
        while true {
            do {
                let node = try InviteKitNode(home: home, configuration: NodeOutput.commandConfiguration(deadline: deadline, budget: budget))
                let answer = try await run(request, on: node)
                try await afterwards(node, answer)
                await node.shutdown()
                return .done(answer)
            } catch let e as InviteKitError where e.code == .storeLocked {
                if serveIsRunning(home) { return try await submit(home: home, request, deadline: deadline) }
                // Another command holds the home for its own run: wait for it, not for a serve.
                guard ContinuousClock.now < deadline else {
                    throw CLIFailure("another invitekit process is using \(home.directory); try again", exitCode: 4)
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// A request that only changes the home (an invite, a revocation, a decline): its answer,
    /// within 30 s.
    static func answer(_ request: Request, home: StoreHome) async throws -> String {
        switch try await perform(request, home: home, deadline: ContinuousClock.now + .seconds(30)) {
        case .done(let answer): return answer
        case .notTaken: throw CLIFailure("not done: serve did not take the request within 30 s", exitCode: 4)
        }
    }

    /// `serve`'s side: runs one request on its node.
    static func run(_ request: Request, on node: InviteKitNode) async throws -> String {
        if case .join(let url) = request {
            if let url { return try await node.startJoin(invite: url).id }
            guard let latest = try await node.pendingJoins().last else { throw CLIFailure("no pending join to resume") }
            return latest.id
        }
        let row = try await node.group(request.group)
        switch request {
        case .send(_, let text):
            // The relay handshake overlaps the encryption and the save.
            await node.prepareConnections(to: row.relays)
            return try await node.send(text, to: row.id)
        case .revoke: return try await node.revokeInvites(groupID: row.id)
        case .invite(_, let singleUse, let expiresIn, let format):
            return try await node.createInvite(groupID: row.id, format: format, singleUse: singleUse, expiresIn: expiresIn).url
        case .add(_, let member):
            let keys = try member.split(separator: ",").map { try NostrKeys.parsePublicKey(String($0)) }
            if keys.count == 1 { return try await node.addMember(keys[0], to: row.id) }
            return try await addMany(keys, to: row.id, on: node)
        case .remove(_, let member): return try await node.removeMember(try NostrKeys.parsePublicKey(member), groupID: row.id)
        case .update: return try await node.selfUpdate(groupID: row.id)
        case .leave: return try await node.leaveGroup(groupID: row.id)
        case .approve(_, let member): return try await node.approveJoin(member: try NostrKeys.parsePublicKey(member), groupID: row.id)
        case .decline(_, let member): return "\(try await node.declineJoin(member: try NostrKeys.parsePublicKey(member), groupID: row.id))"
        case .join: return ""
        }
    }

    /// The longest a multi-member add may take (its Commits go one after another, PROTOCOL §5.11).
    static let maxAddDuration: Duration = .seconds(600)

    /// Adds several members in as many Commits as the event budget needs, driving this node's
    /// runtime when no `serve` does (under `serve`, its runtime is already running). Answers the
    /// last Commit's id.
    static func addMany(_ keys: [Secp256k1.XOnlyPublicKey], to groupID: String, on node: InviteKitNode) async throws -> String {
        let driver = Task { try? await node.run() }
        defer { driver.cancel() }
        let result = try await node.addMembers(keys, to: groupID, timeout: maxAddDuration)
        driver.cancel()
        await driver.value
        guard let last = result.commits.last else { throw CLIFailure("nobody to add: every member is in the group or has no valid KeyPackage") }
        return last
    }

    static func directory(_ home: StoreHome) -> String { (home.directory as NSString).appendingPathComponent("inbox") }

    /// `serve` writes its pid here while it takes requests (and removes it when it stops).
    static func serveMarker(_ home: StoreHome) -> String { (directory(home) as NSString).appendingPathComponent("serving") }

    /// Whether a live `serve` holds this home: its marker names a running process.
    static func serveIsRunning(_ home: StoreHome) -> Bool {
        guard let data = FileManager.default.contents(atPath: serveMarker(home)),
              let pid = Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// Hands `request` to `serve` and waits for its answer. The hand-off is exact: `serve` takes
    /// a request by renaming `<id>.json` to `<id>.taken`, and this side withdraws it at the
    /// deadline by unlinking `<id>.json`. Only one of the two can succeed, so a withdrawn request
    /// never runs, and a taken one is always waited for: `serve` answers most without waiting on
    /// a relay, and marks a long one (a multi-member add) as alive every few seconds.
    static func submit(home: StoreHome, _ request: Request, deadline: ContinuousClock.Instant) async throws -> Handled {
        let dir = directory(home)
        let id = UUID().uuidString
        var o = JSONOutput()
        for (k, v) in request.fields.sorted(by: { $0.key < $1.key }) { o.add(k, v) }
        let path = (dir as NSString).appendingPathComponent(id + ".json")
        try SafeFile.write(Array(o.string.utf8), to: path, mode: 0o600)
        let done = (dir as NSString).appendingPathComponent(id + ".done")
        let taken = (dir as NSString).appendingPathComponent(id + ".taken")
        var withdrawn = false
        // After it took the request, serve answers within this grace; past it, it died mid-way.
        var grace = ContinuousClock.now + .seconds(30)
        while true {
            if let data = FileManager.default.contents(atPath: done) {
                unlink(done)
                let answer = String(decoding: data, as: UTF8.self)
                if answer.hasPrefix("error: ") { throw CLIFailure(String(answer.dropFirst(7))) }
                return .done(answer)
            }
            if !withdrawn, ContinuousClock.now >= deadline {
                if unlink(path) == 0 { return .notTaken }
                withdrawn = true
                grace = ContinuousClock.now + .seconds(30)
            }
            if withdrawn, ContinuousClock.now >= grace, !FileManager.default.fileExists(atPath: done) {
                if !FileManager.default.fileExists(atPath: taken) { continue }
                // Still running (a long add): serve touches its mark every few seconds.
                if isFresh(taken) { grace = ContinuousClock.now + .seconds(1) } else {
                    throw CLIFailure("serve took the request and stopped before answering; check `group read` before retrying", exitCode: 4)
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `serve`'s side: takes every waiting request (an atomic rename, so a request withdrawn
    /// at the same moment is not taken), runs it and answers. Returns how many it ran.
    static func drain(_ node: InviteKitNode, home: StoreHome) async -> Int {
        let dir = directory(home)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return 0 }
        var n = 0
        for name in names.sorted() where name.hasSuffix(".json") {
            let base = (dir as NSString).appendingPathComponent(String(name.dropLast(5)))
            guard rename(base + ".json", base + ".taken") == 0 else { continue }
            n += 1
            let request: Request
            do {
                guard let data = FileManager.default.contents(atPath: base + ".taken"),
                      let fields = try JSONSerialization.jsonObject(with: data) as? [String: String] else { throw CLIFailure("malformed request") }
                request = try Request(fields: fields)
            } catch {
                answer("error: \(CLIMessages.describe(error))", base: base)
                continue
            }
            // A multi-member add runs for minutes (one confirmed Commit after another), and a
            // membership change waits for a Commit in flight: each gets its own task, so the
            // requests behind it are not held up.
            if request.isLong {
                Task { await answer(request, base: base, on: node) }
            } else {
                await answer(request, base: base, on: node)
            }
        }
        return n
    }

    /// Runs a taken request and answers it; meanwhile `<id>.taken` is touched every few
    /// seconds, so the waiting command knows serve is still at it (``submit``).
    private static func answer(_ request: Request, base: String, on node: InviteKitNode) async {
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: heartbeatInterval)
                utimes(base + ".taken", nil)
            }
        }
        defer { heartbeat.cancel() }
        do {
            answer(try await run(request, on: node), base: base)
        } catch {
            answer("error: \(CLIMessages.describe(error))", base: base)
        }
    }

    private static func answer(_ text: String, base: String) {
        do {
            try SafeFile.write(Array(text.utf8), to: base + ".done", mode: 0o600)
        } catch {
            StdIO.printError("cannot answer a request: \(CLIMessages.describe(error))")
        }
        unlink(base + ".taken")
    }

    /// How often serve marks a request it is still running; a mark older than 3 of these means it stopped.
    static let heartbeatInterval: Duration = .seconds(5)

    /// Whether serve marked `taken` within the last 3 heartbeats.
    static func isFresh(_ taken: String) -> Bool {
        guard let modified = (try? FileManager.default.attributesOfItem(atPath: taken))?[.modificationDate] as? Date else { return false }
        return Date().timeIntervalSince(modified) < 3 * Double(heartbeatInterval.components.seconds)
    }
}
