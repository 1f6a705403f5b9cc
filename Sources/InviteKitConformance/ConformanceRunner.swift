import Foundation
import InviteKit
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr

/// Runs one MDK scenario document (Scenario IR v2/v3, `cgka-conformance-simulator/schemas`)
/// against InviteKit clients, each an ``InviteKitNode`` on its own store, over ``ConformanceBus``,
/// and checks its expected outcomes (PROTOCOL §5.13.1). A `tick` is MDK's harness tick: the
/// client takes its whole mailbox, then settles (its convergence passes' windows pass). A step or
/// outcome type the runner does not implement fails, naming the type.
package struct ConformanceRunner {
    /// The relay URL every client names; the transport is in memory.
    static let relay = "wss://conformance.invitekit.invalid"
    /// Event time: a fixed base, plus one second per step, so `created_at` never decides anything
    /// here by accident (convergence must not read it anyway).
    static let baseTime: Int64 = 1_800_000_000

    let document: [String: Any]
    let name: String
    let names: [String]
    var clients: [String: ConformanceClient] = [:]
    var bus: ConformanceBus
    var trace = ConformanceTrace()
    var stepIndex = 0
    var steps: [[String: Any]] = []
    /// The step clock the nodes' `created_at` reads (``baseTime`` plus the step index).
    let stepClock = LockedBox<Int64>(ConformanceRunner.baseTime)
    /// The clock the nodes' convergence passes read: it moves only when a tick lets a pass's
    /// window pass, so whether a pass closed never depends on how fast this machine is.
    let passClock = LockedBox<ContinuousClock.Instant>(ContinuousClock.now)
    /// What each published event is, by event id, for the bus's selectors.
    var labels: [String: Label] = [:]
    typealias Label = (messageClass: ConformanceMessage.Class, publication: String?, action: String, group: String)

    var now: Int64 { Self.baseTime + Int64(stepIndex) }

    package init(json: [UInt8]) throws {
        guard let o = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
            throw ConformanceError(.malformedScenario, "not a JSON object")
        }
        guard let scenario = o["scenario"] as? [String: Any], let names = scenario["clients"] as? [String],
              let steps = scenario["steps"] as? [[String: Any]] else {
            throw ConformanceError(.malformedScenario, "no scenario.clients and scenario.steps")
        }
        let version = scenario["spec_version"] as? String ?? "?"
        guard version == "2" || version == "3" else {
            throw ConformanceError(.malformedScenario, "scenario IR version \(version); this runner reads 2 and 3")
        }
        document = o
        name = o["scenario_name"] as? String ?? scenario["name"] as? String ?? "scenario"
        self.names = names
        self.steps = steps
        bus = ConformanceBus(clients: names)
    }

    // MARK: Running

    /// Opens one node per client in a fresh temporary directory, runs every step, closes the
    /// nodes and deletes the directory, then checks every expected outcome (or the expected trace).
    package mutating func run() async -> ConformanceResult {
        var result = ConformanceResult(scenario: name)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("invitekit-conformance-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let (stepTime, passTime) = (stepClock, passClock)
            for n in names {
                clients[n] = try await ConformanceClient(name: n, directory: directory, clock: { stepTime.withLock { $0 } },
                                                         passClock: { passTime.withLock { $0 } })
            }
        } catch {
            result.failures.append("opening the clients' nodes: \(error)")
            await closeAll()
            return result
        }
        for (i, step) in steps.enumerated() {
            stepIndex = i
            stepClock.withLock { $0 = now }
            do {
                try await execute(step, group: "default")
            } catch {
                result.failures.append("step \(i) (\(step["type"] as? String ?? "?")): \(error)")
                await closeAll()
                return result
            }
        }
        await closeAll()
        let checker = ConformanceOutcomeChecker(trace: trace)
        if let outcomes = document["expected_outcomes"] as? [[String: Any]] {
            for o in outcomes {
                result.checked += 1
                if let failure = checker.check(o) { result.failures.append(failure) }
            }
        }
        if let expectedTrace = document["expected_trace"] as? [String: Any] {
            for failure in checker.checkTrace(expectedTrace) { result.failures.append(failure) }
            result.checked += 1
        }
        if result.checked == 0 { result.failures.append("the scenario expects nothing: no outcome was checked") }
        return result
    }

    func closeAll() async {
        for c in clients.values { await c.close() }
    }

    mutating func execute(_ step: [String: Any], group: String) async throws {
        guard let type = step["type"] as? String else { throw ConformanceError(.malformedScenario, "a step without a type") }
        let action = "step-\(stepIndex):\(type)"
        switch type {
        case "in_group":
            guard let g = step["group"] as? String, let inner = step["action"] as? [String: Any] else {
                throw ConformanceError(.malformedScenario, "in_group needs group and action")
            }
            try await execute(inner, group: g)
        case "create_group":
            try await createGroup(step, group: group, action: action)
        case "invite_members":
            let inviter = try string(step, "inviter")
            var kps: [NostrEvent] = []
            for invitee in try strings(step, "invitees") { kps.append(try await client(invitee).node.conformanceKeyPackage()) }
            let id = try groupID(inviter, group)
            let commit = try await client(inviter).node.conformanceAdd(keyPackages: kps, groupData: nil, to: id)
            try await staged(inviter, commit: commit, group: group, publication: step["pending"] as? String, action: action)
        case "remove_members":
            let remover = try string(step, "remover")
            let id = try groupID(remover, group)
            for member in try strings(step, "members") {
                let key = try Secp256k1.XOnlyPublicKey(rawRepresentation: try client(member).identity)
                try await requireIdle(remover, id)
                let commit = try await client(remover).node.removeMember(key, groupID: id)
                try await staged(remover, commit: commit, group: group, publication: step["pending"] as? String, action: action)
            }
        case "self_update":
            let c = try string(step, "client")
            try await requireIdle(c, try groupID(c, group))
            let commit = try await client(c).node.selfUpdate(groupID: try groupID(c, group))
            try await staged(c, commit: commit, group: group, publication: step["pending"] as? String, action: action)
        case "update_group_data", "update_group_profile":
            let c = try string(step, "client")
            let name = step["name"] as? String, description = step["description"] as? String
            let commit = try await client(c).node.conformanceChangeGroupData(try groupID(c, group)) { data in
                if let name { data.name = name }
                if let description { data.description = description }
            }
            try await staged(c, commit: commit, group: group, publication: step["pending"] as? String, action: action)
        case "update_admin_policy":
            let c = try string(step, "client")
            let admins = try strings(step, "admins").map { try client($0).identity }
            let commit = try await client(c).node.conformanceChangeGroupData(try groupID(c, group)) { data in data.admins = admins }
            try await staged(c, commit: commit, group: group, publication: step["pending"] as? String, action: action)
        case "expect_update_admin_policy_error":
            let c = try string(step, "client"), expected = try string(step, "error")
            let admins = try strings(step, "admins").map { try client($0).identity }
            let id = try groupID(c, group)
            let refused: InviteKitError
            do {
                let commit = try await client(c).node.conformanceChangeGroupData(id) { data in data.admins = admins }
                throw ConformanceError(.stepFailed, "update_admin_policy succeeded with Commit \(commit); expected \(expected)")
            } catch let e as InviteKitError {
                refused = e
            }
            let code = Self.errorCode(refused)
            guard code == expected else { throw ConformanceError(.stepFailed, "update_admin_policy failed with \(code); expected \(expected)") }
            trace.errors.append(.init(stepIndex: stepIndex, client: c, operation: "update_admin_policy", error: code))
        case "acknowledge_outbound":
            try await acknowledge(step)
        case "send_app_message":
            let sender = try string(step, "sender"), payload = try string(step, "payload")
            let id = try await client(sender).node.send(payload, to: try groupID(sender, group))
            labels[id] = (.application, nil, action, try groupLabel(sender, group))
            try await flush(sender)
        case "leave":
            let c = try string(step, "client")
            let id = try await client(c).node.leaveGroup(groupID: try groupID(c, group))
            labels[id] = (.proposal, nil, action, try groupLabel(c, group))
            try await flush(c)
        case "deliver_all":
            bus.deliverAll()
        case "tick":
            for c in try strings(step, "clients") { try await tick(c) }
        case "await_quiescence":
            try await quiesce()
        case "clear_events":
            for c in try strings(step, "clients") { try client(c).window = .init() }
        case "observe", "observe_exact":
            for c in try strings(step, "clients") { try await observe(c, group: group, exact: type == "observe_exact") }
        case "observe_admin_policy":
            for c in try strings(step, "clients") {
                let g = try await client(c).group(try groupLabel(c, group))
                trace.adminPolicies.append(.init(client: c, admins: g.groupData.admins.map(labelOf)))
            }
        case "probe_bidirectional_decryptability":
            try await probe(try strings(step, "clients"), group: group)
        case "withhold_message":
            let selector = try object(step, "selector")
            guard bus.withhold(selector, label: try string(step, "label")) > 0 else { throw ConformanceError(.stepFailed, "withhold_message matched nothing") }
        case "release_withheld":
            guard bus.release(try string(step, "label")) else { throw ConformanceError(.stepFailed, "nothing withheld under that label") }
        case "duplicate_message":
            guard bus.duplicate(try object(step, "selector")) > 0 else { throw ConformanceError(.stepFailed, "duplicate_message matched nothing") }
        case "omit_message":
            guard bus.omit(try object(step, "selector")) > 0 else { throw ConformanceError(.stepFailed, "omit_message matched nothing") }
        case "reorder_messages":
            guard let order = step["order"] as? [[String: Any]], bus.reorder(order) else {
                throw ConformanceError(.stepFailed, "reorder_messages: a selector matched nothing queued")
            }
        case "set_partition":
            bus.partition = Set(try strings(step, "allow"))
        case "clear_partition":
            bus.partition = nil
        case "restart_client":
            let c = try client(try string(step, "client"))
            try await c.restart()
            try await flush(c.name)
        case "barrier":
            break
        case "assert":
            try await assertion(try object(step, "assertion"))
        default:
            throw ConformanceError(.unknownStep, "step type \"\(type)\" is not implemented by this runner")
        }
    }

    // MARK: Steps

    /// The creator's node creates the group, then adds the invitees in one Commit that also
    /// names the initial admins (MDK's `create_group` is one Commit from epoch 0).
    mutating func createGroup(_ step: [String: Any], group: String, action: String) async throws {
        let creator = try string(step, "creator"), name = step["name"] as? String ?? ""
        let invitees = try strings(step, "invitees")
        let admins = (step["initial_admins"] as? [String]) ?? defaultAdmins(invitees)
        let c = try client(creator)
        let created = try await c.node.createGroup(name: name, relays: [Self.relay])
        c.groups[group] = created.id
        await c.absorb(people: people)
        var data = try await c.node.conformanceGroup(created.id).groupData
        let before = data.admins
        data.admins = [c.identity]
        for a in admins where a != creator { data.admins.append(try client(a).identity) }
        var kps: [NostrEvent] = []
        for invitee in invitees { kps.append(try await client(invitee).node.conformanceKeyPackage()) }
        let commit = try await c.node.conformanceAdd(keyPackages: kps, groupData: data.admins != before ? data : nil, to: created.id)
        try await staged(creator, commit: commit, group: group, publication: step["pending"] as? String, action: action)
    }

    /// MDK's default initial admins: the invitees that later perform an admin-gated action
    /// (`scenario.rs` at v0.9.14, `scenario_initial_admins`).
    func defaultAdmins(_ invitees: [String]) -> [String] {
        invitees.filter { who in
            steps.dropFirst(stepIndex + 1).contains { s in
                let inner = (s["type"] as? String) == "in_group" ? (s["action"] as? [String: Any] ?? [:]) : s
                switch inner["type"] as? String {
                case "invite_members": return inner["inviter"] as? String == who
                case "update_group_data", "update_group_profile", "update_admin_policy": return inner["client"] as? String == who
                default: return false
                }
            }
        }
    }

    /// An own Commit the node queued: held for the scenario's acknowledgement (publish-before-
    /// apply: nothing changes until the transport accepts it).
    mutating func staged(_ who: String, commit: String, group: String, publication: String?, action: String) async throws {
        let label = try groupLabel(who, group)
        try client(who).outbound.append(.init(eventID: commit, publication: publication, group: label, action: action))
        labels[commit] = (.commit, publication, action, label)
        try await flush(who)
        // A scenario with no acknowledge_outbound step at all predates publish acknowledgement
        // (MDK's first fixtures): its commits are published as made.
        if !acknowledges { try await acknowledge(["client": who, "outcome": "accepted"] as [String: Any]) }
    }

    /// Whether any step acknowledges publications.
    var acknowledges: Bool { steps.contains { ($0["type"] as? String) == "acknowledge_outbound" } }

    mutating func acknowledge(_ step: [String: Any]) async throws {
        let who = try string(step, "client"), accepted = (try string(step, "outcome")) == "accepted"
        let publication = step["publication"] as? String
        let c = try client(who)
        let matching = c.outbound.filter { publication == nil || $0.publication == publication }
        if matching.isEmpty, let publication { throw ConformanceError(.stepFailed, "no unresolved outbound publication \(publication)") }
        for o in matching {
            c.connection.answer(o.eventID, accepted: accepted)
            try await flush(who, quiet: o.action.hasSuffix(":create_group"))
            c.outbound.removeAll { $0.eventID == o.eventID }
        }
        // Received Commits the pending publication held back are settled now.
        try await settle(who)
        if let publication {
            trace.pendingResolutions.append(.init(stepIndex: stepIndex, client: who, pending: publication,
                                                  resolution: accepted ? "confirmed" : "rolled_back"))
        }
    }

    /// Lets the node publish what is due: own Commits are held (``ConformanceRelayConnection``),
    /// everything else reaches the bus, labelled. A Commit the node made on its own (a leave
    /// request committed, a lost add made again) joins the client's outbound.
    mutating func flush(_ who: String, quiet: Bool = false) async throws {
        let c = try client(who)
        for (id, groupID) in await c.node.conformancePendingCommits where !c.outbound.contains(where: { $0.eventID == id }) {
            let label = c.label(ofGroup: groupID) ?? "default"
            c.outbound.append(.init(eventID: id, publication: nil, group: label, action: "step-\(stepIndex):auto_commit"))
            labels[id] = (.commit, nil, "step-\(stepIndex):auto_commit", label)
        }
        for o in c.outbound { c.connection.hold(o.eventID) }
        try await c.node.conformanceFlush(to: c.connection)
        var commitLabels: (publication: String?, action: String, group: String)?
        for event in c.connection.takePublished() {
            switch event.kind {
            case MarmotGroupEvent.kind:
                let unlabelled: Label = (.application, nil, "step-\(stepIndex):unlabelled", "default")
                let l = labels[event.id] ?? unlabelled
                if l.messageClass == .commit { commitLabels = (l.publication, l.action, l.group) }
                bus.publish(sender: who, payload: .group(event), messageClass: l.messageClass, publication: l.publication, action: l.action)
            case GiftWrap.wrapKind:
                // A Welcome is labelled by the Commit that released it: it leaves once that Commit
                // settled (PROTOCOL §5.13, "Welcome hold"), in this flush or a later one.
                let recipient = event.tags.first { $0.first == "p" && $0.count > 1 }?[1]
                let to = clients.values.first { Hex.encode($0.identity) == recipient }?.name ?? "?"
                let released = try await c.node.conformanceCommit(releasing: event.id).flatMap { labels[$0] }
                let l = released.map { (publication: $0.publication, action: $0.action, group: $0.group) } ?? commitLabels
                bus.publish(sender: who, payload: .welcome(rumor: event, recipient: to, group: l?.group ?? "default"),
                            messageClass: .welcome, publication: l?.publication, action: l?.action ?? "step-\(stepIndex):welcome")
            default:
                break // relay lists and the like: nothing a scenario selects
            }
        }
        await c.absorb(quiet: quiet, people: people)
    }

    /// Lets every open convergence pass's window pass, and runs the node's round.
    mutating func settle(_ who: String) async throws {
        let timing = ConvergencePassTiming.v1
        passClock.withLock { $0 = $0.advanced(by: timing.cap + .seconds(1)) }
        try await client(who).node.conformanceRound()
        try await flush(who)
    }

    /// MDK's harness tick: take the whole mailbox in order, then settle (convergence resolves
    /// once the passes' windows passed), then publish what the node owes (leave requests
    /// committed by an admin).
    mutating func tick(_ who: String) async throws {
        let c = try client(who)
        let inbound = c.unrouted + bus.takeMailbox(who)
        c.unrouted = []
        for m in inbound { try await deliver(m, to: who) }
        try await settle(who)
    }

    mutating func deliver(_ m: ConformanceMessage, to who: String) async throws {
        let c = try client(who)
        switch m.payload {
        case let .welcome(wrap, _, group):
            let before = c.joined.count
            await c.node.conformanceReceive(giftWrap: wrap)
            await c.absorb(people: people)
            guard let joined = c.joined.dropFirst(before).last else { throw ConformanceError(.stepFailed, "\(who) did not join from its Welcome") }
            c.groups[group] = joined
            // Events that arrived before the Welcome now route, as a relay's catch-up would
            // bring them once the node subscribed to the group.
            let waiting = c.unrouted
            c.unrouted = []
            for w in waiting { try await deliver(w, to: who) }
        case let .group(event):
            guard let id = try? MarmotGroupEvent.nostrGroupID(of: event), await c.node.conformanceGroupID(nostrGroupID: id) != nil else {
                if c.unrouted.count < 256 { c.unrouted.append(m) }
                return
            }
            await c.node.conformanceReceive(groupEvent: event)
            await c.absorb(people: people)
        }
    }

    /// Delivers and ticks every client until nothing moves (bounded).
    mutating func quiesce() async throws {
        for _ in 0..<32 {
            bus.deliverAll()
            let busy = clients.keys.contains { bus.mailboxCount($0) > 0 }
            if !busy, bus.queue.isEmpty { return }
            for c in clients.keys.sorted() { try await tick(c) }
        }
    }

    mutating func observe(_ who: String, group: String, exact: Bool) async throws {
        let c = try client(who)
        let label = c.groups[group] != nil ? group : (c.groups.count == 1 ? c.groups.keys.first! : group)
        var o = ConformanceTrace.Observation(client: who)
        if let id = c.groups[label] {
            let g = try await c.group(label)
            o.epoch = g.epoch
            o.groupName = g.groupData.name
            o.groupDescription = g.groupData.description
            if !g.isRemoved { o.memberCount = g.state.memberIdentities.count }
            if exact {
                o.canonical = ConformanceTrace.Canonical(group: g)
                o.pendingWork = try await c.node.conformancePendingWork(id) + bus.mailboxCount(who) + c.unrouted.count
            }
        }
        o.window = c.window
        trace.observations.append(o)
        c.window = .init()
    }

    /// Every ordered pair seals a probe on a copy of its node's group state and the other opens
    /// it on a copy: nothing a probe does stays.
    mutating func probe(_ names: [String], group: String) async throws {
        var edges: [ConformanceTrace.Probe.Edge] = []
        for s in names {
            for r in names where r != s {
                var sender = try await client(s).group(try groupLabel(s, group))
                var recipient = try await client(r).group(try groupLabel(r, group))
                let text = "probe:\(s)->\(r)"
                var ok = false
                if let e = try? sender.message(EventTemplate(kind: 9, content: text), now: now, rng: try client(s).rng),
                   case let .message(rumor, _)? = recipient.receive(event: e, now: now).first {
                    ok = rumor.content == text
                }
                edges.append(.init(sender: s, recipient: r, delivered: ok))
            }
        }
        trace.probes.append(.init(clients: names, edges: edges))
    }

    /// What an `assert` predicate reads of every client, now.
    func states() async throws -> [String: ConformanceClientState] {
        var out: [String: ConformanceClientState] = [:]
        for (n, c) in clients {
            let label = c.groups.count == 1 ? c.groups.keys.first : (c.groups["default"] != nil ? "default" : nil)
            var s = ConformanceClientState(window: c.window)
            if let label, let id = c.groups[label] {
                s.group = try await c.node.conformanceGroup(id)
                s.pendingWork = try await c.node.conformancePendingWork(id)
            }
            s.pendingWork += bus.mailboxCount(n) + c.unrouted.count
            out[n] = s
        }
        return out
    }

    mutating func assertion(_ a: [String: Any]) async throws {
        let mode = try string(a, "mode"), predicate = try object(a, "predicate")
        let checker = ConformanceOutcomeChecker(trace: trace)
        switch mode {
        case "exactly":
            guard try checker.predicate(predicate, states: try await states()) else {
                throw ConformanceError(.stepFailed, "assertion does not hold: \(predicate)")
            }
        case "eventually", "within":
            let rounds = (a["max_iterations"] as? Int) ?? max(1, ((a["timeout_ms"] as? Int) ?? 1000) / max(1, (a["poll_interval_ms"] as? Int) ?? 1000))
            for _ in 0...min(rounds, 64) {
                if try checker.predicate(predicate, states: try await states()) { return }
                bus.deliverAll()
                for c in clients.keys.sorted() { try await tick(c) }
            }
            guard try checker.predicate(predicate, states: try await states()) else {
                throw ConformanceError(.stepFailed, "assertion never held: \(predicate)")
            }
        case "never":
            guard try !checker.predicate(predicate, states: try await states()) else {
                throw ConformanceError(.stepFailed, "assertion held, expected never: \(predicate)")
            }
        default:
            throw ConformanceError(.unknownStep, "assertion mode \"\(mode)\" is not implemented by this runner")
        }
    }

    // MARK: Helpers

    /// The node's own calls wait while the group has a Commit in flight or a pass collecting;
    /// nothing but the scenario would end that wait here, so a busy group fails the step.
    func requireIdle(_ who: String, _ groupID: String) async throws {
        let state = try await client(who).node.convergenceState(of: groupID)
        if state.lifecycle == .pendingPublish || state.collecting {
            throw ConformanceError(.stepFailed, "\(who)'s group is busy (\(state.lifecycle.rawValue), collecting \(state.collecting))")
        }
    }

    func client(_ name: String) throws -> ConformanceClient {
        guard let c = clients[name] else { throw ConformanceError(.malformedScenario, "unknown client \(name)") }
        return c
    }

    /// The group label a step outside `in_group` means for `who`: the named one, else its only one.
    func groupLabel(_ who: String, _ group: String) throws -> String {
        let c = try client(who)
        if c.groups[group] != nil { return group }
        if group == "default", c.groups.count == 1, let only = c.groups.keys.first { return only }
        throw ConformanceError(.stepFailed, "\(who) is in no group \(group)")
    }

    /// The node's private group id for `who`'s group labelled `group`.
    func groupID(_ who: String, _ group: String) throws -> String {
        guard let id = try client(who).groups[try groupLabel(who, group)] else { throw ConformanceError(.stepFailed, "\(who) is in no group \(group)") }
        return id
    }

    func labelOf(_ identity: [UInt8]) -> String { people[identity] ?? Hex.encode(identity) }

    /// Each client's label by its identity.
    var people: [[UInt8]: String] { Dictionary(uniqueKeysWithValues: clients.values.map { ($0.identity, $0.name) }) }

    func string(_ o: [String: Any], _ key: String) throws -> String {
        guard let s = o[key] as? String else { throw ConformanceError(.malformedScenario, "\(o["type"] ?? "step") lacks \(key)") }
        return s
    }

    func strings(_ o: [String: Any], _ key: String) throws -> [String] {
        guard let s = o[key] as? [String] else { throw ConformanceError(.malformedScenario, "\(o["type"] ?? "step") lacks \(key)") }
        return s
    }

    func object(_ o: [String: Any], _ key: String) throws -> [String: Any] {
        guard let s = o[key] as? [String: Any] else { throw ConformanceError(.malformedScenario, "\(o["type"] ?? "step") lacks \(key)") }
        return s
    }

    /// MDK's error vocabulary for what the node refuses (`foundation/errors.md`).
    static func errorCode(_ error: InviteKitError) -> String {
        switch error.underlyingCode {
        case "not_admin": return "not_group_admin"
        // An admin list the admin-policy component cannot hold (empty, a non-member).
        case "invalid_component", "invalid_group_data", "last_admin": return "invalid_admin_policy"
        default: return error.underlyingCode ?? error.code.rawValue
        }
    }
}
