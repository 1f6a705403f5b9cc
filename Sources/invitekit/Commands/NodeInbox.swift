import Foundation
import InviteKit
import InviteKitStore

/// The node actions a CLI process may run on a home. Run directly when the home's lock is free;
/// otherwise handed to the `serve` holding it: one JSON file each in `HOME/inbox/`, answered by
/// a `.done` file holding the answer (or `error: …`). One dispatcher (``run(_:on:)``) serves both.
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

        /// The group the request names (either of its ids, or a unique prefix).
        var group: String {
            switch self {
            case .send(let g, _), .revoke(let g), .invite(let g, _, _, _), .approve(let g, _), .decline(let g, _), .add(let g, _),
                 .remove(let g, _), .update(let g), .leave(let g):
                return g
            }
        }

        /// Whether the answer is an event to publish (the direct path then flushes to the group's relays).
        var publishes: Bool {
            switch self {
            case .send, .add, .remove, .update, .leave, .approve: return true
            case .revoke, .invite, .decline: return false
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
            }
        }

        init(fields f: [String: String]) throws {
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

    /// Runs `request` on this process's node when it can take the home's lock (flushing what it
    /// queued to the group's relays), else hands it to `serve`. Returns the answer: an event id,
    /// a tag or a URL.
    static func perform(_ request: Request, home: StoreHome, timeout: Double = 30) async throws -> String {
        let node: InviteKitNode
        do {
            node = try InviteKitNode(home: home)
        } catch let e as StoreError where e.code == .locked {
            return try await submit(home: home, request, timeout: timeout)
        }
        let (answer, row) = try await execute(request, on: node)
        if request.publishes { try await NodeOutput.flush(node, relays: row.relays) }
        return answer
    }

    /// `serve`'s side of ``perform(_:home:timeout:)``: the answer only (serve flushes on its own).
    static func run(_ request: Request, on node: InviteKitNode) async throws -> String {
        try await execute(request, on: node).answer
    }

    /// The one place a request becomes a node call; also returns the group's row.
    private static func execute(_ request: Request, on node: InviteKitNode) async throws -> (answer: String, row: StoredGroup) {
        let row = try await node.groupRow(request.group)
        return (try await answer(request, row: row, on: node), row)
    }

    private static func answer(_ request: Request, row: StoredGroup, on node: InviteKitNode) async throws -> String {
        switch request {
        case .send(_, let text): return try await node.sendMessage(text: text, groupID: row.id).eventID
        case .revoke: return try await node.revokeInvites(groupID: row.id)
        case .invite(_, let singleUse, let expiresIn, let format):
            return try await node.createInvite(groupID: row.id, format: format, singleUse: singleUse, expiresIn: expiresIn).url
        case .add(_, let member):
            let pool = RelayPool(urls: row.relays)
            defer { Task { await pool.close() } }
            return try await node.addMember(try NostrKeys.parsePublicKey(member), groupID: row.id, pool: pool)
        case .remove(_, let member): return try await node.removeMember(try NostrKeys.parsePublicKey(member).rawRepresentation, groupID: row.id)
        case .update: return try await node.selfUpdate(groupID: row.id)
        case .leave: return try await node.leaveGroup(groupID: row.id)
        case .approve(_, let member): return try await node.approveJoin(member: try NostrKeys.parsePublicKey(member), groupID: row.id)
        case .decline(_, let member): return "\(try await node.declineJoin(member: try NostrKeys.parsePublicKey(member), groupID: row.id))"
        }
    }

    static func directory(_ home: StoreHome) -> String { (home.directory as NSString).appendingPathComponent("inbox") }

    static func submit(home: StoreHome, _ request: Request, timeout: Double) async throws -> String {
        let dir = directory(home)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let id = UUID().uuidString
        var o = JSONOutput()
        for (k, v) in request.fields.sorted(by: { $0.key < $1.key }) { o.add(k, v) }
        let path = (dir as NSString).appendingPathComponent(id + ".json")
        try Data(o.string.utf8).write(to: URL(fileURLWithPath: path + ".tmp"))
        try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
        let done = (dir as NSString).appendingPathComponent(id + ".done")
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: done) {
                try? FileManager.default.removeItem(atPath: done)
                let answer = String(decoding: data, as: UTF8.self)
                if answer.hasPrefix("error: ") { throw CLIFailure(String(answer.dropFirst(7))) }
                return answer
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try? FileManager.default.removeItem(atPath: path)
        throw CLIFailure("serve did not take the request within \(Int(timeout)) s", exitCode: 4)
    }

    /// `serve`'s side: runs every waiting request once. Returns how many.
    static func drain(_ node: InviteKitNode, home: StoreHome) async -> Int {
        let dir = directory(home)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return 0 }
        var n = 0
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = (dir as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            try? FileManager.default.removeItem(atPath: path)
            let answer: String
            do {
                guard let fields = try JSONSerialization.jsonObject(with: data) as? [String: String] else { throw CLIFailure("malformed request") }
                answer = try await run(Request(fields: fields), on: node)
            } catch {
                answer = "error: \(CLIMessages.describe(error))"
            }
            let done = (dir as NSString).appendingPathComponent(String(name.dropLast(5)) + ".done")
            FileManager.default.createFile(atPath: done, contents: Data(answer.utf8))
            n += 1
        }
        return n
    }
}
