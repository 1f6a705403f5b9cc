import Foundation
import InviteKit

/// One MDK identity inside an ``MDKWorker``: its own Nostr keys and MDK database.
final class MDKPeer: InteropMember {
    let worker: MDKWorker
    let name: String
    let pubkey: String
    var label: String { "MDK(\(name))" }
    /// KeyPackage event id -> its author, so each Welcome rumor (which names the KeyPackage event
    /// in its `e` tag, not the member) can be gift-wrapped to the right key.
    private var keyPackageAuthors: [String: String] = [:]
    /// nostr_group_id -> MDK's mls_group_id (MDK's API takes the latter).
    private var mlsGroupIDs: [String: String] = [:]
    /// Welcome wraps of the pending commit, per group, released by ``mergePendingCommit(group:)``.
    private var pendingWelcomes: [String: [InteropChange.Welcome]] = [:]

    init(worker: MDKWorker, name: String, pubkey: String) {
        self.worker = worker
        self.name = name
        self.pubkey = pubkey
    }

    private func call(_ command: String, _ arguments: [String: Any] = [:]) throws -> [String: Any] {
        var args = arguments
        args["peer"] = name
        return try worker.call(command, args)
    }

    // MARK: KeyPackages

    /// A signed kind-30443 KeyPackage event from MDK, with MDK's KeyPackageRef.
    func createKeyPackage(relays: [String], protected: Bool = false) throws -> (event: NostrEvent, hashRef: String) {
        let r = try call("create_key_package", ["relays": relays, "protected": protected])
        return (try NostrEvent(jsonObject: r["event"]), r["hash_ref"] as? String ?? "")
    }

    /// MDK's validation of a KeyPackage event (throws ``MDKWorkerFailure`` with MDK's reason when refused).
    @discardableResult
    func parseKeyPackage(_ event: NostrEvent) throws -> String {
        try call("parse_key_package", ["event": event.jsonObject])["parsed"] as? String ?? ""
    }

    func keyPackageEvent(relays: [String]) throws -> NostrEvent { try createKeyPackage(relays: relays).event }

    // MARK: Group operations

    func createGroup(name: String, relays: [String], admins: [String], inviting keyPackages: [NostrEvent]) throws -> (group: String, change: InteropChange) {
        remember(keyPackages)
        let r = try call("create_group", ["name": name, "relays": relays, "admins": admins,
                                          "key_packages": keyPackages.map(\.jsonObject)])
        let g = r["group"] as? [String: Any]
        guard let mls = g?["mls_group_id"] as? String, let group = g?["nostr_group_id"] as? String else {
            throw MDKWorkerFailure(kind: .protocolError, command: "create_group", message: "no group ids")
        }
        mlsGroupIDs[group] = mls
        let welcomes = try wrapWelcomes(r["welcome_rumors"])
        pendingWelcomes[group] = welcomes
        return (group, InteropChange(commit: nil, welcomes: welcomes))
    }

    func addMembers(_ keyPackages: [NostrEvent], group: String) throws -> InteropChange {
        remember(keyPackages)
        return try change(call("add_members", ["group": try mls(group), "key_packages": keyPackages.map(\.jsonObject)]), group: group)
    }

    func removeMembers(_ pubkeys: [String], group: String) throws -> InteropChange {
        try change(call("remove_members", ["group": try mls(group), "members": pubkeys]), group: group)
    }

    func selfUpdate(group: String) throws -> InteropChange { try change(call("self_update", ["group": try mls(group)]), group: group) }

    /// MDK 0.8's `update_group_data`: one Commit replacing the named fields of the group data
    /// (0xf2ee); a field left `nil` stays as it is.
    func updateGroupData(group: String, name: String? = nil, admins: [String]? = nil) throws -> InteropChange {
        var arguments: [String: Any] = ["group": try mls(group)]
        if let name { arguments["name"] = name }
        if let admins { arguments["admins"] = admins }
        return try change(call("update_group_data", arguments), group: group)
    }

    /// MDK's leave: a remove proposal for self, which an admin then commits.
    func leave(group: String) throws -> NostrEvent {
        try NostrEvent(jsonObject: call("leave_group", ["group": try mls(group)])["commit"])
    }

    @discardableResult
    func mergePendingCommit(group: String) throws -> [InteropChange.Welcome] {
        _ = try call("merge_pending_commit", ["group": try mls(group)])
        return pendingWelcomes.removeValue(forKey: group) ?? []
    }

    func join(welcome wrap: NostrEvent) throws -> String {
        try joinedGroup(call("process_welcome", ["wrap": wrap.jsonObject]))
    }

    /// Joins from a bare kind-444 rumor (MDK records a stand-in wrapper id).
    func join(welcomeRumor rumor: NostrEvent) throws -> String {
        try joinedGroup(call("process_welcome", ["rumor": rumor.jsonObject]))
    }

    func send(_ content: String, group: String) throws -> NostrEvent {
        try NostrEvent(jsonObject: call("create_message", ["group": try mls(group), "content": content, "kind": 9])["event"])
    }

    /// Processes every kind-445 event of the group on `pool` not in `seen`, in MIP-03 order, as an
    /// MDK app reading its relays does; adds them to `seen`.
    func readGroupEvents(from pool: RelayPool, group nostrGroupID: String, seen: inout Set<String>) async throws -> [InteropOutcome] {
        let events = await pool.fetch([NostrFilter(kinds: [445]).tag("h", [nostrGroupID])], timeout: .seconds(5)).events
        var outcomes: [InteropOutcome] = []
        for e in events.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) where !seen.contains(e.id) {
            seen.insert(e.id)
            outcomes.append(try process(e))
        }
        return outcomes
    }

    func process(_ event: NostrEvent) throws -> InteropOutcome {
        let r: [String: Any]
        do { r = try call("process_message", ["event": event.jsonObject]) } catch let f as MDKWorkerFailure where f.kind == .refused {
            return .rejected(f.message)
        }
        switch r["type"] as? String {
        case "application_message":
            let m = r["message"] as? [String: Any] ?? [:]
            return .message(sender: m["sender_pubkey"] as? String ?? "", content: m["content"] as? String ?? "")
        case "commit": return .commit
        case "proposal", "pending_proposal", "external_join_proposal": return .proposal
        case let other: return .rejected("\(other ?? "?"): \(r)")
        }
    }

    /// Like ``process(_:)``, for a proposal MDK commits at once (as an admin does with a leave):
    /// the commit it produced.
    func processProposal(_ event: NostrEvent) throws -> NostrEvent? {
        let r = try call("process_message", ["event": event.jsonObject])
        return r["commit"].flatMap { $0 is NSNull ? nil : try? NostrEvent(jsonObject: $0) }
    }

    func groupInfo(_ group: String) throws -> [String: Any] { try call("group", ["group": try mls(group)]) }

    func members(group: String) throws -> Set<String> { Set(try groupInfo(group)["members"] as? [String] ?? []) }

    func epoch(group: String) throws -> UInt64 {
        let g = try groupInfo(group)["group"] as? [String: Any]
        return (g?["epoch"] as? NSNumber)?.uint64Value ?? 0
    }

    /// NIP-59 gift wrap of `rumor` from this peer to `recipient`, made by nostr-sdk.
    func giftWrap(_ rumor: NostrEvent, to recipient: String) throws -> NostrEvent {
        try NostrEvent(jsonObject: call("gift_wrap", ["recipient": recipient, "rumor": rumor.jsonObject])["wrap"])
    }

    // MARK: Helpers

    private func remember(_ keyPackages: [NostrEvent]) {
        for kp in keyPackages { keyPackageAuthors[kp.id] = kp.pubkey }
    }

    private func mls(_ group: String) throws -> String {
        guard let id = mlsGroupIDs[group] else {
            throw MDKWorkerFailure(kind: .protocolError, command: "group", message: "\(label) knows no group \(group)")
        }
        return id
    }

    private func change(_ r: [String: Any], group: String) throws -> InteropChange {
        let welcomes = try wrapWelcomes(r["welcome_rumors"])
        pendingWelcomes[group] = welcomes
        return InteropChange(commit: try NostrEvent(jsonObject: r["commit"]), welcomes: welcomes)
    }

    private func wrapWelcomes(_ rumors: Any?) throws -> [InteropChange.Welcome] {
        try (rumors as? [Any] ?? []).map { obj in
            let rumor = try NostrEvent(jsonObject: obj, requireSignature: false)
            guard let e = rumor.firstTagValue("e"), let recipient = keyPackageAuthors[e] else {
                throw MDKWorkerFailure(kind: .protocolError, command: "welcome", message: "Welcome rumor names no KeyPackage event this peer consumed")
            }
            return InteropChange.Welcome(recipient: recipient, wrap: try giftWrap(rumor, to: recipient))
        }
    }

    private func joinedGroup(_ r: [String: Any]) throws -> String {
        let w = r["welcome"] as? [String: Any]
        guard let mls = w?["mls_group_id"] as? String, let group = w?["nostr_group_id"] as? String else {
            throw MDKWorkerFailure(kind: .protocolError, command: "process_welcome", message: "no group ids")
        }
        mlsGroupIDs[group] = mls
        return group
    }
}
