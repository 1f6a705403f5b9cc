// An app written against InviteKit's public API only (no @testable), for the process tests:
// an inviter or a joiner that survives `kill -9` at any point. Everything it decides is derived
// from the node's store on each start, so a restart neither loses nor repeats a message.
// Both roles also consume the node's feed (`feed(since:)`) into HOME/feed.log, one line per
// message, with the cursor kept in that log itself: the process tests check that the log holds
// every stored message exactly once, each sender's in order, however often the app was killed.
//
//   invitekit-node-app inviter HOME RELAY         prints INVITE <url>, GROUP <id>; answers ping N with pong N
//   invitekit-node-app joiner HOME RELAY URL N    joins, sends ping 0..<N, waits for the pongs, prints DONE
//
// Two more roles show the multi-process home (``NodeHome``), with no CLI involved:
//
//   invitekit-node-app serve HOME RELAY           owns the home and serves it: prints GROUP <id>,
//                                                 SERVING, then TOOK <n> per look at the inbox
//   invitekit-node-app hand HOME GROUP TEXT       a second process: hands a send to the serving
//                                                 node, prints SERVED, ANSWER <event id> <status>,
//                                                 HISTORY <n> (lock-free reads), or ERROR <code>
//
// And the requester of an invite link (PROTOCOL §5.14.16), whose code names CODE_RELAY (the
// connector takes it to RELAY):
//
//   invitekit-node-app link-joiner HOME RELAY CODE CODE_RELAY   previews and consents unless the
//                                                 home has a request already, prints REQUEST <id>,
//                                                 then JOINED <group> once a Welcome matched
//
// And the admin of an automatic invite link (PROTOCOL §5.14.15), killed at its publish boundaries:
//
//   invitekit-node-app link-admin HOME RELAY CODE_RELAY   makes a group (prints GROUP <id>) and one
//                                                 automatic link on CODE_RELAY unless the home has
//                                                 them, prints LINK <code> once the link is active,
//                                                 then runs (approving requests) until killed
import Foundation
import InviteKit

@main
enum NodeApp {
    static func main() async {
        let args = CommandLine.arguments
        guard args.count >= 4 else { fail("usage: invitekit-node-app inviter|joiner HOME RELAY [URL N]") }
        do {
            let home = StoreHome(directory: args[2])
            if args[1] == "hand", args.count == 5 { return try await hand(NodeHome(home), group: args[3], text: args[4]) }
            if !home.exists { try InviteKitNode.initialize(home: home, relays: [args[3]]) }
            if args[1] == "link-joiner", args.count == 6 { return try await linkJoiner(home, relay: args[3], code: args[4], codeRelay: args[5]) }
            if args[1] == "link-admin", args.count == 5 { return try await linkAdmin(home, relay: args[3], codeRelay: args[4]) }
            let node = try InviteKitNode(home: home, configuration: .init(relayTimeout: .seconds(5), idleInterval: .milliseconds(200)))
            if args[1] == "serve" { return try await serve(node) }
            let runner = node.runInBackground()
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

    /// An invite link's requester that survives `kill -9`: what it did is read back from its home
    /// on each start, so a restart neither loses the request nor sends another.
    static func linkJoiner(_ home: StoreHome, relay: String, code: String, codeRelay: String) async throws {
        let node = try InviteKitNode(home: home, configuration: .init(relayTimeout: .seconds(5), idleInterval: .milliseconds(200), connector: { url in
            WebSocketRelayClient(url: url == codeRelay ? relay : url)
        }))
        var requestID = try await node.inviteLinkJoins().first?.requestID
        if requestID == nil {
            let opened = try await node.previewInviteLink(code: code)
            requestID = try await node.joinByInviteLink(code: code, preview: opened.preview).requestID
        }
        guard let requestID else { fail("no request") }
        say("REQUEST \(requestID)")
        let runner = node.runInBackground()
        let joined = try await node.waitForInviteLinkJoin(requestID, timeout: .seconds(90))
        say("JOINED \(joined.groupID ?? "")")
        runner.cancel()
    }

    /// An automatic invite link's admin that survives `kill -9`: the group and the link are read
    /// back from the home on each start (a link whose policy Commit is still unacknowledged is
    /// `activating`, and the run loop sends that Commit again rather than a new one).
    static func linkAdmin(_ home: StoreHome, relay: String, codeRelay: String) async throws {
        let node = try InviteKitNode(home: home, configuration: .init(relayTimeout: .seconds(5), idleInterval: .milliseconds(200),
                                                                      selfUpdatePolicy: nil, connector: { url in
            WebSocketRelayClient(url: url == codeRelay ? relay : url)
        }))
        let runner = node.runInBackground()
        var group = try await node.groups().first
        if group == nil { group = try await node.createGroup(name: "club") }
        guard let group else { fail("no group") }
        say("GROUP \(group.id)")
        if try await node.inviteLinks(in: group.id).isEmpty {
            _ = try await node.createInviteLink(in: group.id, approval: .automatic, requestRelays: [codeRelay], timeout: .seconds(60))
        }
        while try await node.inviteLinks(in: group.id).first?.state != .active { try await Task.sleep(for: .milliseconds(100)) }
        say("LINK \(try await node.inviteLinks(in: group.id)[0].code.bech32m)")
        try await runner.value
    }

    /// Owns the home: makes a group, then serves the home until killed.
    static func serve(_ node: InviteKitNode) async throws {
        var group = try await node.groups().first
        if group == nil { group = try await node.createGroup(name: "served") }
        guard let group else { fail("no group") }
        say("GROUP \(group.id)")
        try await NodeHome(node.home).serve(node, onReady: { say("SERVING") }, onRequests: { n in say("TOOK \(n)") })
    }

    /// A second process: the home is held by the serving node, so the send is handed to it and
    /// its answer waited for; what happened is read back without the lock.
    static func hand(_ home: NodeHome, group: String, text: String) async throws {
        say("SERVED \(home.isServed)")
        let id: String
        do throws(InviteKitError) {
            id = try await home.perform(.send(group: group, text: text), settle: .decided, timeout: .seconds(30))
        } catch {
            return say("ERROR \(error.code.rawValue)")
        }
        let status = try home.messageStatus(of: id)
        say("ANSWER \(id) \(status?.rawValue ?? "none")")
        let mine = try home.history(of: group).filter { $0.outgoing && $0.content == text && $0.eventID == id }
        say("HISTORY \(mine.count)")
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
