import InviteKitMLS

/// Checks a scenario's `expected_outcomes` (and `expected_trace`) against what the run recorded,
/// with the semantics of MDK's `vector.rs` at v0.9.14: state outcomes read each client's latest
/// observation; exact ones its latest `observe_exact`. Every failure names the outcome.
struct ConformanceOutcomeChecker {
    let trace: ConformanceTrace

    /// `nil` when `o` holds, else why not.
    func check(_ o: [String: Any]) -> String? {
        let type = o["type"] as? String ?? "?"
        func fail(_ why: String) -> String { "\(type) \(describe(o)): \(why)" }
        let client = o["client"] as? String
        switch type {
        case "pending_resolution":
            let want = ConformanceTrace.PendingResolution(stepIndex: o["step_index"] as? Int ?? -1, client: client ?? "",
                                                          pending: o["pending"] as? String ?? "", resolution: o["resolution"] as? String ?? "")
            return trace.pendingResolutions.contains(want) ? nil : fail("not recorded")
        case "expected_error":
            let want = ConformanceTrace.ErrorObservation(stepIndex: o["step_index"] as? Int ?? -1, client: client ?? "",
                                                         operation: o["operation"] as? String ?? "", error: o["error"] as? String ?? "")
            return trace.errors.contains(want) ? nil : fail("not recorded")
        case "admin_policy":
            guard let c = client, let p = trace.adminPolicies.last(where: { $0.client == c }) else { return fail("no admin-policy observation") }
            let want = (o["admins"] as? [String] ?? []).sorted()
            return p.admins.sorted() == want ? nil : fail("admins were \(p.admins.sorted())")
        case "client_state":
            guard let c = client, let ob = trace.latest(c) else { return fail("no observation") }
            if let e = o["epoch"] as? Int, ob.epoch != UInt64(e) { return fail("epoch was \(ob.epoch)") }
            if let m = o["member_count"] as? Int, ob.memberCount != m { return fail("member_count was \(ob.memberCount)") }
            if let p = o["received_payloads"] as? [String], ob.window.payloads != p { return fail("payloads were \(ob.window.payloads)") }
            if let a = o["added_members"] as? [String], ob.window.added != a { return fail("added were \(ob.window.added)") }
            if let r = o["removed_members"] as? [String], ob.window.removed != r { return fail("removed were \(ob.window.removed)") }
            return nil
        case "group_profile":
            guard let c = client, let ob = trace.latest(c) else { return fail("no observation") }
            let name = o["name"] as? String ?? "", description = o["description"] as? String ?? ""
            return ob.groupName == name && ob.groupDescription == description ? nil
                : fail("profile was \(ob.groupName.debugDescription)/\(ob.groupDescription.debugDescription)")
        case "clients_converged":
            let names = o["clients"] as? [String] ?? []
            let obs = names.compactMap { trace.latest($0) }
            guard !names.isEmpty, obs.count == names.count else { return fail("a client was never observed") }
            let first = obs[0]
            let same = obs.allSatisfy { $0.epoch == first.epoch && $0.memberCount == first.memberCount && $0.groupName == first.groupName
                && $0.groupDescription == first.groupDescription }
            if !same { return fail("observations differ: \(obs.map { "\($0.client)@\($0.epoch)/\($0.memberCount)/\($0.groupName)" })") }
            if let e = o["epoch"] as? Int, first.epoch != UInt64(e) { return fail("epoch was \(first.epoch)") }
            if let m = o["member_count"] as? Int, first.memberCount != m { return fail("member_count was \(first.memberCount)") }
            return nil
        case "clients_exactly_equivalent":
            let names = o["clients"] as? [String] ?? []
            let states = names.compactMap { trace.latestExact($0)?.canonical }
            guard !names.isEmpty, states.count == names.count else { return fail("a client was not observed with observe_exact") }
            return states.allSatisfy { $0 == states[0] } ? nil : fail("canonical states differ")
        case "no_pending_work":
            for c in o["clients"] as? [String] ?? [] {
                guard let work = trace.latestExact(c)?.pendingWork else { return fail("\(c) was not observed with observe_exact") }
                if work != 0 { return fail("\(c) had \(work) pending items") }
            }
            return nil
        case "clients_bidirectionally_decryptable":
            let names = o["clients"] as? [String] ?? []
            guard let p = trace.probes.last(where: { Set($0.clients) == Set(names) }) else { return fail("no probe over these clients") }
            let failed = p.edges.filter { !$0.delivered }.map { "\($0.sender)->\($0.recipient)" }
            return failed.isEmpty ? nil : fail("undelivered edges \(failed)")
        case "client_epoch_changes":
            guard let c = client, let ob = trace.latest(c) else { return fail("no observation") }
            let want = (o["changes"] as? [[String: Any]] ?? []).map { (UInt64($0["from"] as? Int ?? -1), UInt64($0["to"] as? Int ?? -1)) }
            let got = ob.window.epochChanges
            return got.count == want.count && zip(got, want).allSatisfy({ $0.from == $1.0 && $0.to == $1.1 }) ? nil
                : fail("changes were \(got.map { "\($0.from)->\($0.to)" })")
        case "convergence_decision":
            let pool = client.map { c in trace.latest(c).map { [$0] } ?? [] } ?? trace.observations
            let settled = pool.compactMap { $0.window.decisions.last { $0.candidateCount > 0 } }
            let ok = settled.contains { d in
                if let e = o["selected_tip_epoch"] as? Int, d.selectedTipEpoch != UInt64(e) { return false }
                if let r = o["decisive_rule"] as? String, d.decisiveRule?.rawValue != r { return false }
                if let q = o["witness_quorum_met"] as? Bool, d.witnessQuorumMet != q { return false }
                if let m = o["min_app_witness_score"] as? Int, (d.appWitnessScore ?? 0) < UInt64(m) { return false }
                return true
            }
            return ok ? nil : fail("settled decisions were \(settled.map { "tip \($0.selectedTipEpoch.map(String.init) ?? "-") rule \($0.decisiveRule?.rawValue ?? "-") quorum \($0.witnessQuorumMet) score \($0.appWitnessScore ?? 0)" })")
        default:
            return "unknown_outcome: outcome type \"\(type)\" is not implemented by this runner"
        }
    }

    /// `expected_trace` (the smoke fixtures): acknowledgements and observations, exactly.
    func checkTrace(_ t: [String: Any]) -> [String] {
        var failures: [String] = []
        let wantResolutions = (t["pending_resolutions"] as? [[String: Any]] ?? []).map {
            ConformanceTrace.PendingResolution(stepIndex: $0["step_index"] as? Int ?? -1, client: $0["client"] as? String ?? "",
                                               pending: $0["pending"] as? String ?? "", resolution: $0["resolution"] as? String ?? "")
        }
        if wantResolutions != trace.pendingResolutions { failures.append("expected_trace: pending resolutions were \(trace.pendingResolutions)") }
        let want = t["observations"] as? [[String: Any]] ?? []
        if want.count != trace.observations.count { failures.append("expected_trace: \(trace.observations.count) observations, expected \(want.count)") }
        for (w, got) in zip(want, trace.observations) {
            let counts = w["event_counts"] as? [String: Int] ?? [:]
            let window = got.window
            let gotCounts = ["message_received": window.messageReceived, "member_added": window.memberAdded, "member_removed": window.memberRemoved,
                             "epoch_changed": window.epochChanged, "app_invalidated": window.appInvalidated]
            var why: [String] = []
            if w["client"] as? String != got.client { why.append("client \(got.client)") }
            if let e = w["epoch"] as? Int, UInt64(e) != got.epoch { why.append("epoch \(got.epoch)") }
            if let m = w["member_count"] as? Int, m != got.memberCount { why.append("member_count \(got.memberCount)") }
            if let n = w["group_name"] as? String, n != got.groupName { why.append("group_name \(got.groupName)") }
            if let p = w["received_payloads"] as? [String], p != window.payloads { why.append("payloads \(window.payloads)") }
            if let r = w["removed_members"] as? [String], r != window.removed { why.append("removed \(window.removed)") }
            for (k, v) in counts where gotCounts[k] != v { why.append("\(k) \(gotCounts[k].map(String.init) ?? "unknown")") }
            if !why.isEmpty { failures.append("expected_trace: observation of \(got.client): \(why.joined(separator: ", "))") }
        }
        return failures
    }

    /// An `assert` step's predicate over what each client holds now.
    func predicate(_ p: [String: Any], states: [String: ConformanceClientState]) throws -> Bool {
        let type = p["type"] as? String ?? "?"
        switch type {
        case "client_state":
            guard let c = p["client"] as? String, let client = states[c] else { throw ConformanceError(.malformedScenario, "predicate client") }
            let g = client.group
            if let e = p["epoch"] as? Int, g?.epoch != UInt64(e) { return false }
            if let m = p["member_count"] as? Int, (g.map { $0.isRemoved ? 0 : $0.state.memberIdentities.count } ?? 0) != m { return false }
            return true
        case "payload_count":
            guard let c = p["client"] as? String, let client = states[c], let payload = p["payload"] as? String, let n = p["count"] as? Int else {
                throw ConformanceError(.malformedScenario, "payload_count predicate")
            }
            return client.window.payloads.filter { $0 == payload }.count == n
        case "no_pending_work":
            return (p["clients"] as? [String] ?? []).allSatisfy { c in states[c].map { $0.pendingWork == 0 } ?? false }
        case "clients_exactly_equivalent":
            let canonical = (p["clients"] as? [String] ?? []).compactMap { c in states[c]?.group.map(ConformanceTrace.Canonical.init) }
            return !canonical.isEmpty && canonical.allSatisfy { $0 == canonical[0] }
        default:
            throw ConformanceError(.unknownOutcome, "predicate type \"\(type)\" is not implemented by this runner")
        }
    }

    func describe(_ o: [String: Any]) -> String {
        var parts: [String] = []
        for k in ["client", "clients", "pending", "step_index"] { if let v = o[k] { parts.append("\(k)=\(v)") } }
        return "(" + parts.joined(separator: " ") + ")"
    }
}
