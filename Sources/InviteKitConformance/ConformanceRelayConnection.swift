import InviteKitCrypto
import InviteKitNostr
import InviteKitRelay

/// A scenario client's relay: what its node publishes lands here, for the runner to put on
/// ``ConformanceBus``. An own Commit is held until the scenario acknowledges it: until then a
/// publish of it gets no `OK` (`timedOut`, so the node keeps it pending and sends it again), then
/// the scenario's answer (`OK true`, or a permanent refusal that rolls it back). Everything else
/// is accepted at once. Subscriptions are not offered: the runner delivers inbound events itself.
final class ConformanceRelayConnection: NostrRelayConnection {
    private struct State {
        var held: Set<String> = []
        var answers: [String: Bool] = [:]
        var published: [NostrEvent] = []
        var stored: Set<String> = []
    }

    let url = ConformanceRunner.relay
    private let state = LockedBox(State())

    /// Holds `eventID` (an own Commit) until ``answer(_:accepted:)``.
    func hold(_ eventID: String) {
        state.withLock { s in if s.answers[eventID] == nil { s.held.insert(eventID) } }
    }

    /// The scenario's acknowledgement of a held publication.
    func answer(_ eventID: String, accepted: Bool) {
        state.withLock { s in
            s.held.remove(eventID)
            s.answers[eventID] = accepted
        }
    }

    /// What was accepted since the last call, in publishing order (each event once).
    func takePublished() -> [NostrEvent] {
        state.withLock { s in
            defer { s.published = [] }
            return s.published
        }
    }

    func publish(_ event: NostrEvent, timeout: Duration) async -> PublishOutcome {
        state.withLock { s in
            if s.held.contains(event.id) { return .timedOut(wasSent: true) }
            if s.answers[event.id] == false {
                return .rejected(OKMessage(eventId: event.id, accepted: false, message: "invalid: the scenario failed this publication"))
            }
            if s.stored.insert(event.id).inserted { s.published.append(event) }
            return .accepted(OKMessage(eventId: event.id, accepted: true, message: ""))
        }
    }

    func subscribe(_ filters: [NostrFilter]) async throws(RelayError) -> RelaySubscription {
        throw RelayError(.subscriptionClosed, "the conformance runner delivers inbound events itself")
    }

    func close() async {}
}
