import Foundation
import InviteKit
import InviteKitStore

/// Output and store helpers shared by the node commands.
enum NodeOutput {
    /// One line: JSON with sorted keys, or `text`.
    static func emit(_ json: Bool, _ fields: [String: String], text: String) {
        if json {
            var o = JSONOutput()
            for (k, v) in fields.sorted(by: { $0.key < $1.key }) { o.add(k, v) }
            StdIO.printLine(o.string)
        } else {
            StdIO.printLine(text)
        }
    }

    /// Reads the home's database without its lock, so it works while `serve` runs (WAL readers).
    static func readStore<T>(_ home: StoreHome, _ body: (StoreTransaction) throws -> T) throws -> T {
        guard home.exists else { throw CLIFailure("no identity in \(home.directory) (run `invitekit init`)") }
        return try Store.open(path: home.databasePath).read(body)
    }

    static func npub(_ key: [UInt8]) -> String {
        (try? Secp256k1.XOnlyPublicKey(rawRepresentation: key)).map { NIP19.npub($0) } ?? Hex.encode(key)
    }

    static func time(_ t: Int64) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    static func flush(_ node: InviteKitNode, relays: [String]) async throws {
        let pool = RelayPool(urls: relays)
        try await node.flushOutbound(to: pool.relays)
        await pool.close()
    }

    /// Polls the store until the message's status is final (acked or failed) or `timeout` passes.
    static func waitForDelivery(home: StoreHome, eventID: String, timeout: Double) async throws -> StoredMessage.Status {
        let deadline = Date().addingTimeInterval(timeout)
        var status = StoredMessage.Status.pending
        while Date() < deadline {
            status = try readStore(home) { tx in try tx.messages.get(eventID: eventID)?.status } ?? .pending
            if status == .acked || status == .failed { return status }
            try await Task.sleep(for: .milliseconds(200))
        }
        return status
    }
}

/// Requests a CLI process hands to the `serve` that holds the home's lock: one JSON file each in
/// `HOME/inbox/`, answered by a `.done` file holding the event id (or `error: …`).
enum NodeInbox {
    enum Request {
        case send(group: String, text: String)
        case revoke(group: String)
        case invite(group: String, singleUse: Bool, expiresIn: Int64?)
    }

    static func directory(_ home: StoreHome) -> String { (home.directory as NSString).appendingPathComponent("inbox") }

    static func submit(home: StoreHome, _ request: Request, timeout: Double) async throws -> String {
        let dir = directory(home)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let id = UUID().uuidString
        var o = JSONOutput()
        switch request {
        case .send(let group, let text):
            o.add("op", "send"); o.add("group", group); o.add("text", text)
        case .revoke(let group):
            o.add("op", "revoke"); o.add("group", group)
        case .invite(let group, let singleUse, let expiresIn):
            o.add("op", "invite"); o.add("group", group); o.add("single_use", singleUse ? "true" : "false")
            if let expiresIn { o.add("expires_in", "\(expiresIn)") }
        }
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
                guard let object = try JSONSerialization.jsonObject(with: data) as? [String: String],
                      let group = object["group"] else { throw CLIFailure("malformed request") }
                let row = try await node.groupRow(group)
                switch object["op"] {
                case "send":
                    guard let text = object["text"] else { throw CLIFailure("malformed request") }
                    answer = try await node.sendMessage(text: text, groupID: row.id).eventID
                case "revoke":
                    answer = try await node.revokeInvites(groupID: row.id)
                case "invite":
                    answer = try await node.createInvite(groupID: row.id, singleUse: object["single_use"] == "true",
                                                         expiresIn: object["expires_in"].flatMap { Int64($0) }).url
                default:
                    throw CLIFailure("malformed request")
                }
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

/// Sends `invitekit group …` and `invitekit invite …` to the node commands when they name a
/// node's group (`--group ID`) or use a node-only subcommand; everything else (`--state FILE`,
/// stateless invites) reaches the original commands unchanged.
enum NodeCommandRouting {
    static let nodeGroupOnly: Set<String> = ["new", "list", "members", "read"]

    static func route(_ args: [String]) -> [String] {
        guard args.count >= 2 else { return args }
        let names = args.dropFirst(2)
        let hasGroup = names.contains("--group") || names.contains { $0.hasPrefix("--group=") }
        let hasState = names.contains("--state") || names.contains { $0.hasPrefix("--state=") }
        switch args[0] {
        case "group" where nodeGroupOnly.contains(args[1]) || (hasGroup && !hasState):
            return ["node-group"] + args.dropFirst()
        case "invite" where args[1] == "revoke" || (args[1] == "create" && hasGroup):
            return ["node-invite"] + args.dropFirst()
        default:
            return args
        }
    }
}
