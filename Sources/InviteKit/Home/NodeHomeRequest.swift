import InviteKitStore

/// One piece of work a process hands to the node that owns a home (``NodeHome/perform(_:settle:timeout:eventBudget:)``):
/// run by this process's own node when the home is free, else by the process serving it
/// (``NodeHome/serve(_:onReady:onRequests:)``) through the home's inbox (docs/node.md, "The inbox").
/// A group is named by either of its ids or a unique prefix; members by npub or hex key.
public enum NodeHomeRequest: Sendable, Hashable {
    /// Sends a message (``InviteKitNode/send(_:to:)``); answers its event id.
    case send(group: String, text: String)
    /// Reacts to a message (``InviteKitNode/react(_:to:in:)``); answers the reaction's event id.
    case react(group: String, message: String, emoji: String)
    /// Answers a message (``InviteKitNode/reply(_:to:in:)``); answers the reply's event id.
    case reply(group: String, message: String, text: String)
    /// Edits an own message (``InviteKitNode/edit(_:newText:in:)``); answers the edit's event id.
    case edit(group: String, message: String, text: String)
    /// Deletes an own message (``InviteKitNode/delete(_:in:)``); answers the deletion's event id.
    case delete(group: String, message: String)
    /// Sets the group's message retention (``InviteKitNode/setMessageRetention(_:groupID:)``); answers the Commit's id.
    case retention(group: String, seconds: UInt64)
    /// Rotates the group's invite tag (``InviteKitNode/revokeInvites(groupID:)``); answers the new tag.
    case revoke(group: String)
    /// Makes an invite (``InviteKitNode/createInvite(groupID:format:singleUse:expiresIn:)``); answers its URL.
    case invite(group: String, singleUse: Bool, expiresIn: Int64?, format: StoredInvite.Format)
    /// Approves a waiting Whistle join request (``InviteKitNode/approveJoin(member:groupID:)``); answers the Commit's id.
    case approve(group: String, member: String)
    /// Declines a waiting Whistle join request; answers how many requests were declined.
    case decline(group: String, member: String)
    /// Adds members by KeyPackage (one Commit, or as many as the event budget needs); answers the last Commit's id.
    case add(group: String, members: [String])
    /// Removes a member (``InviteKitNode/removeMember(_:groupID:)``); answers the Commit's id.
    case remove(group: String, member: String)
    /// Rotates this member's keys (``InviteKitNode/selfUpdate(groupID:)``); answers the Commit's id.
    case update(group: String)
    /// Asks to leave the group (``InviteKitNode/leaveGroup(groupID:)``); answers the request's event id.
    case leave(group: String)
    /// Renames the group (``InviteKitNode/renameGroup(_:to:)``); answers the Commit's id.
    case rename(group: String, name: String)
    /// Replaces the group's description (``InviteKitNode/describeGroup(_:as:)``); answers the Commit's id.
    case describe(group: String, description: String)
    /// Makes a member an admin (``InviteKitNode/promoteAdmin(_:in:)``); answers the Commit's id.
    case promote(group: String, member: String)
    /// Takes admin rights from an admin, this node included (``InviteKitNode/demoteAdmin(_:in:)``); answers the Commit's id.
    case demote(group: String, member: String)
    /// Replaces the group's relays (``InviteKitNode/changeGroupRelays(_:to:)``); answers the Commit's id.
    case relays(group: String, relays: [String])
    /// Disbands the group (``InviteKitNode/disbandGroup(_:)``); answers the Commit's id.
    case disband(group: String)
    /// Mutes or unmutes the group for this home (``InviteKitNode/setMuted(_:groupID:)``); answers `muted` or `unmuted`.
    case mute(group: String, muted: Bool)
    /// Pins or unpins the group for this home (``InviteKitNode/setPinned(_:groupID:)``); answers `pinned` or `unpinned`.
    case pin(group: String, pinned: Bool)
    /// Marks the group read up to a message, or its newest (``InviteKitNode/markRead(_:upTo:)``); answers the unread count.
    case markRead(group: String, event: String?)
    /// Creates an invite link (``InviteKitNode/createInviteLink(in:approval:expiresAt:name:description:requestRelays:timeout:)``),
    /// valid for `expiresIn` seconds (`nil`: no expiry), on `relays` (empty: the group's `wss://`
    /// ones); answers its `marmot1…` code.
    case createLink(group: String, automatic: Bool, expiresIn: Int64?, name: String?, description: String, relays: [String])
    /// Revokes an invite link (``InviteKitNode/revokeInviteLink(_:in:timeout:)``); answers the Commit's id.
    case revokeLink(group: String, link: String)
    /// Approves or declines an invite-link request (``InviteKitNode/decideInviteRequest(_:in:approve:)``);
    /// answers the approval's Commit id, or `declined`.
    case decideLinkRequest(group: String, request: String, approve: Bool)
    /// Starts a join through an invite URL (``InviteKitNode/startJoin(invite:name:)``), or with
    /// `nil` names the latest pending join; answers the join's id.
    case join(url: String?)

    /// The group the request names; empty for a join.
    public var group: String {
        switch self {
        case .send(let g, _), .react(let g, _, _), .reply(let g, _, _), .edit(let g, _, _), .delete(let g, _), .retention(let g, _), .revoke(let g),
             .invite(let g, _, _, _), .approve(let g, _), .decline(let g, _), .add(let g, _),
             .remove(let g, _), .update(let g), .leave(let g), .rename(let g, _), .describe(let g, _), .promote(let g, _), .demote(let g, _),
             .relays(let g, _), .disband(let g), .mute(let g, _), .pin(let g, _), .markRead(let g, _), .createLink(let g, _, _, _, _, _),
             .revokeLink(let g, _), .decideLinkRequest(let g, _, _):
            return g
        case .join: return ""
        }
    }

    /// A request that may wait on relays while a node serves the home: a multi-member add (as many
    /// confirmed Commits as the event budget needs), and any membership change, which waits for the
    /// group's Commit in flight before it builds its own. The server runs each in its own task.
    var isLong: Bool {
        switch self {
        case .add, .remove, .update, .approve, .retention, .rename, .describe, .promote, .demote, .relays, .disband, .createLink, .revokeLink,
             .decideLinkRequest: return true
        default: return false
        }
    }

    /// The request as the inbox file's JSON object holds it (docs/node.md, "The inbox").
    var fields: [String: String] {
        switch self {
        case .send(let g, let text): return ["op": "send", "group": g, "text": text]
        case .react(let g, let m, let emoji): return ["op": "react", "group": g, "message": m, "text": emoji]
        case .reply(let g, let m, let text): return ["op": "reply", "group": g, "message": m, "text": text]
        case .edit(let g, let m, let text): return ["op": "edit", "group": g, "message": m, "text": text]
        case .delete(let g, let m): return ["op": "delete", "group": g, "message": m]
        case .retention(let g, let seconds): return ["op": "retention", "group": g, "seconds": "\(seconds)"]
        case .revoke(let g): return ["op": "revoke", "group": g]
        case .invite(let g, let singleUse, let expiresIn, let format):
            var f = ["op": "invite", "group": g, "single_use": singleUse ? "true" : "false", "format": format.rawValue]
            if let expiresIn { f["expires_in"] = "\(expiresIn)" }
            return f
        case .add(let g, let members): return ["op": "add", "group": g, "member": members.joined(separator: ",")]
        case .remove(let g, let member): return ["op": "remove", "group": g, "member": member]
        case .update(let g): return ["op": "update", "group": g]
        case .leave(let g): return ["op": "leave", "group": g]
        case .approve(let g, let member): return ["op": "approve", "group": g, "member": member]
        case .decline(let g, let member): return ["op": "decline", "group": g, "member": member]
        case .rename(let g, let name): return ["op": "rename", "group": g, "name": name]
        case .describe(let g, let description): return ["op": "describe", "group": g, "description": description]
        case .promote(let g, let member): return ["op": "promote", "group": g, "member": member]
        case .demote(let g, let member): return ["op": "demote", "group": g, "member": member]
        case .relays(let g, let relays): return ["op": "relays", "group": g, "relays": relays.joined(separator: "\n")]
        case .disband(let g): return ["op": "disband", "group": g]
        case .mute(let g, let muted): return ["op": "mute", "group": g, "on": muted ? "true" : "false"]
        case .pin(let g, let pinned): return ["op": "pin", "group": g, "on": pinned ? "true" : "false"]
        case .markRead(let g, let event): return event.map { ["op": "mark_read", "group": g, "event": $0] } ?? ["op": "mark_read", "group": g]
        case .join(let url): return url.map { ["op": "join", "url": $0] } ?? ["op": "join"]
        case .createLink(let g, let automatic, let expiresIn, let name, let description, let relays):
            var f = ["op": "link_create", "group": g, "automatic": automatic ? "true" : "false", "description": description,
                     "relays": relays.joined(separator: "\n")]
            if let expiresIn { f["expires_in"] = "\(expiresIn)" }
            if let name { f["name"] = name }
            return f
        case .revokeLink(let g, let link): return ["op": "link_revoke", "group": g, "link": link]
        case .decideLinkRequest(let g, let request, let approve):
            return ["op": approve ? "link_approve" : "link_decline", "group": g, "request": request]
        }
    }

    /// Reads an inbox file's object; `nil` for one this version does not know.
    init?(fields f: [String: String]) {
        if f["op"] == "join" {
            self = .join(url: f["url"])
            return
        }
        guard let g = f["group"] else { return nil }
        switch f["op"] {
        case "send":
            guard let text = f["text"] else { return nil }
            self = .send(group: g, text: text)
        case "react", "reply", "edit":
            guard let m = f["message"], let text = f["text"] else { return nil }
            switch f["op"] {
            case "react": self = .react(group: g, message: m, emoji: text)
            case "reply": self = .reply(group: g, message: m, text: text)
            default: self = .edit(group: g, message: m, text: text)
            }
        case "delete":
            guard let m = f["message"] else { return nil }
            self = .delete(group: g, message: m)
        case "retention":
            guard let seconds = f["seconds"].flatMap({ UInt64($0) }) else { return nil }
            self = .retention(group: g, seconds: seconds)
        case "revoke": self = .revoke(group: g)
        case "invite":
            guard let format = StoredInvite.Format(rawValue: f["format"] ?? "signed") else { return nil }
            self = .invite(group: g, singleUse: f["single_use"] == "true", expiresIn: f["expires_in"].flatMap { Int64($0) }, format: format)
        case "add", "remove", "approve", "decline", "promote", "demote":
            guard let m = f["member"] else { return nil }
            switch f["op"] {
            case "add": self = .add(group: g, members: m.split(separator: ",").map(String.init))
            case "remove": self = .remove(group: g, member: m)
            case "approve": self = .approve(group: g, member: m)
            case "promote": self = .promote(group: g, member: m)
            case "demote": self = .demote(group: g, member: m)
            default: self = .decline(group: g, member: m)
            }
        case "rename":
            guard let name = f["name"] else { return nil }
            self = .rename(group: g, name: name)
        case "describe":
            guard let description = f["description"] else { return nil }
            self = .describe(group: g, description: description)
        case "relays":
            guard let relays = f["relays"] else { return nil }
            self = .relays(group: g, relays: relays.split(separator: "\n").map(String.init))
        case "disband": self = .disband(group: g)
        case "mute": self = .mute(group: g, muted: f["on"] != "false")
        case "pin": self = .pin(group: g, pinned: f["on"] != "false")
        case "mark_read": self = .markRead(group: g, event: f["event"])
        case "link_create":
            self = .createLink(group: g, automatic: f["automatic"] == "true", expiresIn: f["expires_in"].flatMap { Int64($0) }, name: f["name"],
                               description: f["description"] ?? "", relays: (f["relays"] ?? "").split(separator: "\n").map(String.init))
        case "link_revoke":
            guard let link = f["link"] else { return nil }
            self = .revokeLink(group: g, link: link)
        case "link_approve", "link_decline":
            guard let request = f["request"] else { return nil }
            self = .decideLinkRequest(group: g, request: request, approve: f["op"] == "link_approve")
        case "update": self = .update(group: g)
        case "leave": self = .leave(group: g)
        default: return nil
        }
    }
}
