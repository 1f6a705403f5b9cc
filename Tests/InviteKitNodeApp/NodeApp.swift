// An app written against InviteKit's public API only (no @testable), for the process tests:
// an inviter or a joiner that survives `kill -9` at any point. Everything it decides is derived
// from the node's store on each start, so a restart neither loses nor repeats a message.
// Both roles also consume the node's feed (`feed(since:)`) into HOME/feed.log, one line per
// message, with the cursor kept in that log itself: the process tests check that the log holds
// every stored message exactly once, each sender's in order, however often the app was killed.
//
//   invitekit-node-app inviter HOME RELAY         prints INVITE <url>, GROUP <id>; answers ping N with pong N
//   invitekit-node-app joiner HOME RELAY URL N    joins, sends ping 0..<N, waits for the pongs, prints DONE
import Foundation
import InviteKit

@main
enum NodeApp {
    static func main() async {
        let args = CommandLine.arguments
        guard args.count >= 4 else { fail("usage: invitekit-node-app inviter|joiner HOME RELAY [URL N]") }
        do {
            let home = StoreHome(directory: args[2])
            if !home.exists { try InviteKitNode.initialize(home: home, relays: [args[3]]) }
            let node = try InviteKitNode(home: home, configuration: .init(relayTimeout: .seconds(5), idleInterval: .milliseconds(200)))
            let runner = Task { try await node.run() }
            let feed = Task { try await FeedLog(home: args[2]).consume(node) }
            switch args[1] {
            case "inviter": try await inviter(node)
            case "joiner" where args.count == 6:
                try await joiner(node, url: args[4], count: Int(args[5]) ?? 0)
                // The feed log has every stored message before DONE is final.
                try await FeedLog(home: args[2]).waitUntilCaughtUp(node)
                say("DONE")
            default: fail("unknown role")
            }
            runner.cancel()
            feed.cancel()
        } catch {
            fail("error: \(error)")
        }
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func fail(_ line: String) -> Never {
        FileHandle.standardError.write(Data((line + "\n").utf8))
        exit(1)
    }

    static func inviter(_ node: InviteKitNode) async throws {
        let events = node.events()
        var group = try await node.groups().first
        if group == nil { group = try await node.createGroup(name: "pings") }
        guard let group else { fail("no group") }
        var invite = try await node.invites(of: group.id).first
        if invite == nil { invite = try await node.createInvite(groupID: group.id, singleUse: false, expiresIn: 86_400) }
        guard let invite else { fail("no invite") }
        say("GROUP \(group.id)")
        say("INVITE \(invite.url)")
        try await answerPings(node, group: group.id)
        for await event in events {
            if case .messageReceived(let m) = event, m.groupID == group.id { try await answerPings(node, group: group.id) }
        }
    }

    /// Sends `pong N` for every `ping N` in the history that has no `pong N` yet.
    static func answerPings(_ node: InviteKitNode, group: String) async throws {
        let history = try await node.history(of: group, limit: 10_000)
        let pongs = Set(history.filter(\.outgoing).map(\.content))
        for m in history where !m.outgoing && m.content.hasPrefix("ping ") {
            let reply = "pong " + m.content.dropFirst(5)
            if !pongs.contains(reply) {
                _ = try await node.send(reply, to: group)
                say("SENT \(reply)")
            }
        }
    }

    static func joiner(_ node: InviteKitNode, url: String, count: Int) async throws {
        let group: NodeGroup
        if let joined = try await node.groups().first {
            group = joined
        } else if let pending = try await node.pendingJoins().last {
            group = try await node.waitForJoin(pending.id, timeout: .seconds(60))
        } else {
            group = try await node.join(url, timeout: .seconds(60))
        }
        say("JOINED \(group.id)")
        let events = node.events()
        let sent = Set(try await node.history(of: group.id, limit: 10_000).filter(\.outgoing).map(\.content))
        for i in 0..<count where !sent.contains("ping \(i)") {
            _ = try await node.send("ping \(i)", to: group.id)
            say("SENT ping \(i)")
        }
        func pongs() async throws -> Int {
            try await node.history(of: group.id, limit: 10_000).filter { !$0.outgoing && $0.content.hasPrefix("pong ") }.count
        }
        if try await pongs() >= count { return }
        for await event in events {
            if case .messageReceived = event, try await pongs() >= count { return }
        }
    }
}
