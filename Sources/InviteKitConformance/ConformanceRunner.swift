import Foundation
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr

/// Runs one MDK scenario document (Scenario IR v2/v3, `cgka-conformance-simulator/schemas`)
/// against InviteKit clients over ``ConformanceBus`` and checks its expected outcomes
/// (PROTOCOL §5.13). A `tick` is MDK's harness tick: the client takes its whole mailbox, then
/// settles. A step or outcome type the runner does not implement fails, naming the type.
package struct ConformanceRunner {
    /// The relay URL every client names; the transport is in memory.
    static let relay = "wss://conformance.invitekit.invalid"
    /// Event time: a fixed base, plus one second per step, so `created_at` never decides anything
    /// here by accident (convergence must not read it anyway).
    static let baseTime: Int64 = 1_800_000_000

    let document: [String: Any]
    let name: String
    var clients: [String: ConformanceClient] = [:]
    var bus: ConformanceBus
    var trace = ConformanceTrace()
    var stepIndex = 0
    var steps: [[String: Any]] = []
    var outboundSerial = 0
    /// Group label of each create step's group, by nostr group id (hex), for `in_group`.
    var currentGroup = "default"

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
        self.steps = steps
        bus = ConformanceBus(clients: names)
        for n in names { clients[n] = ConformanceClient(name: n) }
    }

    // MARK: Running

    /// Runs every step, then checks every expected outcome (or the expected trace).
    package mutating func run() -> ConformanceResult {
        var result = ConformanceResult(scenario: name)
        for (i, step) in steps.enumerated() {
            stepIndex = i
            do {
                try execute(step, group: "default")
            } catch {
                result.failures.append("step \(i) (\(step["type"] as? String ?? "?")): \(error)")
                return result
            }
        }
        let checker = ConformanceOutcomeChecker(trace: trace, clients: clients)
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

    mutating func execute(_ step: [String: Any], group: String) throws {
        guard let type = step["type"] as? String else { throw ConformanceError(.malformedScenario, "a step without a type") }
        let action = "step-\(stepIndex):\(type)"
        switch type {
        case "in_group":
            guard let g = step["group"] as? String, let inner = step["action"] as? [String: Any] else {
                throw ConformanceError(.malformedScenario, "in_group needs group and action")
            }
            try execute(inner, group: g)
        case "create_group":
            try createGroup(step, group: group, action: action)
        case "invite_members":
            let inviter = try string(step, "inviter")
            let kps = try strings(step, "invitees").map { try client($0).freshKeyPackage(now: now) }
            let validated = try kps.map { try KeyPackageValidator.validate($0, now: now) }
            let rng = try client(inviter).rng, t = now
            try stage(inviter, group: group, publication: step["pending"] as? String, action: action) {
                try $0.commit(adding: validated, now: t, rng: rng)
            }
        case "remove_members":
            let remover = try string(step, "remover")
            let ids = try strings(step, "members").map { try client($0).identity }
            let rng = try client(remover).rng, t = now
            try stage(remover, group: group, publication: step["pending"] as? String, action: action) {
                try $0.commit(removing: ids, now: t, rng: rng)
            }
        case "self_update":
            let c = try string(step, "client")
            let rng = try client(c).rng, t = now
            try stage(c, group: group, publication: step["pending"] as? String, action: action) {
                try $0.selfUpdate(now: t, rng: rng)
            }
        case "update_group_data", "update_group_profile":
            let c = try string(step, "client")
            let rng = try client(c).rng, t = now
            try stage(c, group: group, publication: step["pending"] as? String, action: action) { g in
                var data = g.groupData
                if let n = step["name"] as? String { data.name = n }
                if let d = step["description"] as? String { data.description = d }
                return try g.commit(groupData: data, now: t, rng: rng)
            }
        case "update_admin_policy":
            let c = try string(step, "client")
            let admins = try strings(step, "admins").map { try client($0).identity }
            let rng = try client(c).rng, t = now
            try stage(c, group: group, publication: step["pending"] as? String, action: action) { g in
                var data = g.groupData
                data.admins = admins
                return try g.commit(groupData: data, now: t, rng: rng)
            }
        case "expect_update_admin_policy_error":
            let c = try string(step, "client"), expected = try string(step, "error")
            let admins = try strings(step, "admins").map { try client($0).identity }
            let rng = try client(c).rng, t = now
            do {
                try stage(c, group: group, publication: nil, action: action, keep: false) { g in
                    var data = g.groupData
                    data.admins = admins
                    return try g.commit(groupData: data, now: t, rng: rng)
                }
                throw ConformanceError(.stepFailed, "update_admin_policy succeeded; expected \(expected)")
            } catch let e as ConformanceError where e.code == .stepFailed && e.message.hasPrefix("update_admin_policy succeeded") {
                throw e
            } catch {
                let code = Self.errorCode(error, operation: "update_admin_policy")
                guard code == expected else { throw ConformanceError(.stepFailed, "update_admin_policy failed with \(code); expected \(expected)") }
                trace.errors.append(.init(stepIndex: stepIndex, client: c, operation: "update_admin_policy", error: code))
            }
        case "acknowledge_outbound":
            try acknowledge(step)
        case "send_app_message":
            let sender = try string(step, "sender"), payload = try string(step, "payload")
            let label = try groupLabel(sender, group)
            let event = try clients[sender]!.groups[label]!.message(EventTemplate(kind: 9, content: payload), now: now, rng: clients[sender]!.rng)
            bus.publish(sender: sender, payload: .group(event), messageClass: .application, publication: nil, action: action)
        case "leave":
            let c = try string(step, "client")
            let label = try groupLabel(c, group)
            let event = try clients[c]!.groups[label]!.leaveEvent(now: now, rng: clients[c]!.rng)
            bus.publish(sender: c, payload: .group(event), messageClass: .proposal, publication: nil, action: action)
        case "deliver_all":
            bus.deliverAll()
        case "tick":
            for c in try strings(step, "clients") { try tick(c) }
        case "await_quiescence":
            try quiesce()
        case "clear_events":
            for c in try strings(step, "clients") { _ = try client(c); clients[c]!.window = .init() }
        case "observe", "observe_exact":
            for c in try strings(step, "clients") { try observe(c, group: group, exact: type == "observe_exact") }
        case "observe_admin_policy":
            for c in try strings(step, "clients") {
                let g = try groupOf(c, group)
                trace.adminPolicies.append(.init(client: c, admins: g.groupData.admins.map(labelOf)))
            }
        case "probe_bidirectional_decryptability":
            try probe(try strings(step, "clients"), group: group)
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
            let c = try string(step, "client")
            _ = try client(c)
            try clients[c]!.restart()
            // What a client observed lives in memory: a restart starts a new window (MDK's too).
            clients[c]!.window = .init()
        case "barrier":
            break
        case "assert":
            try assertion(try object(step, "assertion"))
        default:
            throw ConformanceError(.unknownStep, "step type \"\(type)\" is not implemented by this runner")
        }
    }

    // MARK: Steps

    mutating func createGroup(_ step: [String: Any], group: String, action: String) throws {
        let creator = try string(step, "creator"), name = step["name"] as? String ?? ""
        let invitees = try strings(step, "invitees")
        let admins = (step["initial_admins"] as? [String]) ?? defaultAdmins(invitees)
        let kp = try client(creator).freshKeyPackage(now: now)
        guard let bundle = try clients[creator]!.store.bundle(reference: try KeyPackageValidator.validate(kp, now: now).reference) else {
            throw ConformanceError(.stepFailed, "creator's KeyPackage")
        }
        let rng = clients[creator]!.rng, t = now
        let g = try MarmotGroup<MLSGroupState>.create(creator: bundle, name: name, relays: [Self.relay], rng: rng)
        var data = g.groupData
        data.admins = [clients[creator]!.identity]
        for a in admins where a != creator { data.admins.append(try client(a).identity) }
        let kps = try invitees.map { try KeyPackageValidator.validate(try client($0).freshKeyPackage(now: now), now: now) }
        clients[creator]!.groups[group] = g
        let changed = data.admins != g.groupData.admins
        try stage(creator, group: group, publication: step["pending"] as? String, action: action) { g in
            try g.commit(adding: kps, groupData: changed ? data : nil, now: t, rng: rng)
        }
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

    /// Builds an own commit on `who`'s group and holds it for acknowledgement (publish-before-
    /// apply: nothing changes until the transport accepts it).
    mutating func stage(_ who: String, group: String, publication: String?, action: String, keep: Bool = true,
                        _ make: (MarmotGroup<MLSGroupState>) throws -> MarmotPendingCommit<MLSGroupState>) throws {
        let g = try groupOf(who, group)
        let pending = try make(g)
        guard keep else { return }
        outboundSerial += 1
        clients[who]!.outbound.append(.init(id: outboundSerial, publication: publication, group: try groupLabel(who, group),
                                            pending: pending, action: action))
        // A scenario with no acknowledge_outbound step at all predates publish acknowledgement
        // (MDK's first fixtures): its commits are published as made.
        if !acknowledges { try acknowledge(["client": who, "outcome": "accepted"] as [String: Any]) }
    }

    /// Whether any step acknowledges publications.
    var acknowledges: Bool { steps.contains { ($0["type"] as? String) == "acknowledge_outbound" } }

    mutating func acknowledge(_ step: [String: Any]) throws {
        let who = try string(step, "client"), accepted = (try string(step, "outcome")) == "accepted"
        let publication = step["publication"] as? String
        let matching = try client(who).outbound.filter { publication == nil || $0.publication == publication }
        if matching.isEmpty, publication != nil { throw ConformanceError(.stepFailed, "no unresolved outbound publication \(publication!)") }
        for o in matching {
            clients[who]!.outbound.removeAll { $0.id == o.id }
            guard accepted else { continue }
            var g = clients[who]!.groups[o.group]!
            let before = g.epoch, membersBefore = Set(g.state.memberIdentities)
            let wraps = try g.confirmPublished(o.pending, acknowledgedBy: [Self.relay], wrappingWelcomesFrom: clients[who]!.key, now: now,
                                               rng: clients[who]!.rng)
            clients[who]!.groups[o.group] = g
            bus.publish(sender: who, payload: .group(o.pending.event), messageClass: .commit, publication: o.publication, action: o.action)
            for (wrap, kp) in zip(wraps, o.pending.keyPackageEvents) {
                let recipient = clients.values.first { Hex.encode($0.identity) == kp.pubkey }?.name ?? "?"
                bus.publish(sender: who, payload: .welcome(rumor: wrap, recipient: recipient, group: o.group), messageClass: .welcome,
                            publication: o.publication, action: o.action)
            }
            // The creator's own first commit announces no member changes (MDK's observation).
            if !o.action.hasSuffix(":create_group") {
                record(who, before: before, after: g.epoch, membersBefore: membersBefore, membersAfter: Set(g.state.memberIdentities))
            }
        }
        if let publication {
            trace.pendingResolutions.append(.init(stepIndex: stepIndex, client: who, pending: publication,
                                                  resolution: accepted ? "confirmed" : "rolled_back"))
        }
    }

    mutating func record(_ who: String, before: UInt64, after: UInt64, membersBefore: Set<[UInt8]>, membersAfter: Set<[UInt8]>) {
        if before != after {
            clients[who]!.window.epochChanges.append((before, after))
            clients[who]!.window.epochChanged += 1
        }
        for id in membersAfter.subtracting(membersBefore).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            clients[who]!.window.added.append(labelOf(id))
            clients[who]!.window.memberAdded += 1
        }
        for id in membersBefore.subtracting(membersAfter).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            clients[who]!.window.removed.append(labelOf(id))
            clients[who]!.window.memberRemoved += 1
        }
    }

    /// MDK's harness tick: take the whole mailbox in order, then settle (convergence resolves as
    /// each fork is found), then publish what an admin owes (SelfRemoves to commit).
    mutating func tick(_ who: String) throws {
        _ = try client(who)
        let inbound = clients[who]!.unrouted + bus.takeMailbox(who)
        clients[who]!.unrouted = []
        for m in inbound { try deliver(m, to: who) }
        for (label, g) in clients[who]!.groups where g.isAdmin && !g.leaveRequests.isEmpty && !g.isRemoved {
            guard !clients[who]!.outbound.contains(where: { $0.group == label }) else { continue }
            outboundSerial += 1
            let pending = try g.commit(includeSelfRemoves: true, now: now, rng: clients[who]!.rng)
            clients[who]!.outbound.append(.init(id: outboundSerial, publication: nil, group: label, pending: pending,
                                                action: "step-\(stepIndex):auto_commit"))
        }
    }

    mutating func deliver(_ m: ConformanceMessage, to who: String) throws {
        switch m.payload {
        case let .welcome(wrap, _, group):
            let joined = try MarmotGroup<MLSGroupState>.join(giftWrap: wrap, recipient: clients[who]!.key, store: clients[who]!.store)
            clients[who]!.groups[group] = joined
            // Events that arrived before the Welcome may now route. What the joined epoch's key
            // still does not open is history from before the join (the commit that added us
            // among it): it is dropped, not kept as work that can never finish.
            let waiting = clients[who]!.unrouted
            clients[who]!.unrouted = []
            for w in waiting { try deliver(w, to: who) }
            let preJoin = Set(waiting.compactMap { m -> String? in if case let .group(e) = m.payload { return e.id } else { return nil } })
            var g = clients[who]!.groups[group]!
            for e in g.buffer.removeAll() where !preJoin.contains(e.id) { g.buffer.append(e) }
            clients[who]!.groups[group] = g
        case let .group(event):
            guard let id = try? MarmotGroupEvent.nostrGroupID(of: event), let label = clients[who]!.label(ofGroupID: id) else {
                if clients[who]!.unrouted.count < 256 { clients[who]!.unrouted.append(m) }
                return
            }
            var g = clients[who]!.groups[label]!
            let before = g.epoch, membersBefore = Set(g.state.memberIdentities), decisionBefore = g.lastConvergenceDecision
            let receipt = g.ingest(event: event, now: now)
            clients[who]!.groups[label] = g
            for o in receipt.outcomes {
                switch o {
                case let .message(rumor, _):
                    clients[who]!.window.payloads.append(rumor.content)
                    clients[who]!.window.messageReceived += 1
                default: break
                }
            }
            record(who, before: before, after: g.epoch, membersBefore: membersBefore, membersAfter: Set(g.state.memberIdentities))
            if let d = g.lastConvergenceDecision, d != decisionBefore { clients[who]!.window.decisions.append(d) }
        }
    }

    /// Delivers and ticks every client until nothing moves (bounded).
    mutating func quiesce() throws {
        for _ in 0..<32 {
            bus.deliverAll()
            let busy = clients.keys.contains { bus.mailboxCount($0) > 0 }
            if !busy, bus.queue.isEmpty { return }
            for c in clients.keys.sorted() { try tick(c) }
        }
    }

    mutating func observe(_ who: String, group: String, exact: Bool) throws {
        let c = try client(who)
        let label = c.groups[group] != nil ? group : (c.groups.count == 1 ? c.groups.keys.first! : group)
        let g = c.groups[label]
        var o = ConformanceTrace.Observation(client: who)
        if let g, !g.isRemoved {
            o.epoch = g.epoch
            o.memberCount = g.state.memberIdentities.count
            o.groupName = g.groupData.name
            o.groupDescription = g.groupData.description
        } else if let g {
            o.epoch = g.epoch
            o.groupName = g.groupData.name
            o.groupDescription = g.groupData.description
        }
        o.window = c.window
        if exact, let g {
            o.canonical = ConformanceTrace.Canonical(group: g)
            o.pendingWork = g.bufferedCount + c.outbound.count + bus.mailboxCount(who) + c.unrouted.count
        }
        trace.observations.append(o)
        clients[who]!.window = .init()
    }

    /// Every ordered pair seals a probe on a copy of its state and the other opens it on a copy:
    /// nothing a probe does stays.
    mutating func probe(_ names: [String], group: String) throws {
        var edges: [ConformanceTrace.Probe.Edge] = []
        for s in names {
            for r in names where r != s {
                var sender = try groupOf(s, group), recipient = try groupOf(r, group)
                let text = "probe:\(s)->\(r)"
                var ok = false
                if let e = try? sender.message(EventTemplate(kind: 9, content: text), now: now, rng: clients[s]!.rng),
                   case let .message(rumor, _)? = recipient.receive(event: e, now: now).first {
                    ok = rumor.content == text
                }
                edges.append(.init(sender: s, recipient: r, delivered: ok))
            }
        }
        trace.probes.append(.init(clients: names, edges: edges))
    }

    mutating func assertion(_ a: [String: Any]) throws {
        let mode = try string(a, "mode"), predicate = try object(a, "predicate")
        func holds() throws -> Bool {
            try ConformanceOutcomeChecker(trace: trace, clients: clients).predicate(predicate, bus: bus)
        }
        switch mode {
        case "exactly":
            guard try holds() else { throw ConformanceError(.stepFailed, "assertion does not hold: \(predicate)") }
        case "eventually", "within":
            let rounds = (a["max_iterations"] as? Int) ?? max(1, ((a["timeout_ms"] as? Int) ?? 1000) / max(1, (a["poll_interval_ms"] as? Int) ?? 1000))
            for _ in 0...min(rounds, 64) {
                if try holds() { return }
                bus.deliverAll()
                for c in clients.keys.sorted() { try tick(c) }
            }
            guard try holds() else { throw ConformanceError(.stepFailed, "assertion never held: \(predicate)") }
        case "never":
            guard try !holds() else { throw ConformanceError(.stepFailed, "assertion held, expected never: \(predicate)") }
        default:
            throw ConformanceError(.unknownStep, "assertion mode \"\(mode)\" is not implemented by this runner")
        }
    }

    // MARK: Helpers

    func client(_ name: String) throws -> ConformanceClient {
        guard let c = clients[name] else { throw ConformanceError(.malformedScenario, "unknown client \(name)") }
        return c
    }

    /// The group label a step outside `in_group` means for `who`: the named one, else its only one.
    func groupLabel(_ who: String, _ group: String) throws -> String {
        let c = try client(who)
        if c.groups[group] != nil { return group }
        if group == "default", c.groups.count == 1 { return c.groups.keys.first! }
        throw ConformanceError(.stepFailed, "\(who) is in no group \(group)")
    }

    func groupOf(_ who: String, _ group: String) throws -> MarmotGroup<MLSGroupState> {
        try client(who).groups[try groupLabel(who, group)]!
    }

    func labelOf(_ identity: [UInt8]) -> String {
        clients.values.first { $0.identity == identity }?.name ?? Hex.encode(identity)
    }

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

    /// MDK's error vocabulary for what InviteKit refuses (`foundation/errors.md`).
    static func errorCode(_ error: Error, operation: String) -> String {
        guard let e = error as? MLSError else { return "\(error)" }
        switch (e.code, operation) {
        case (.notAdmin, _): return "not_group_admin"
        // An admin list the admin-policy component cannot hold (empty, a non-member).
        case (.invalidComponent, "update_admin_policy"), (.invalidGroupData, "update_admin_policy"): return "invalid_admin_policy"
        default: return e.code.rawValue
        }
    }
}
