import InviteKitCrypto
import InviteKitNostr

/// The client side of NIP-01 (with NIP-42 `AUTH`) for one relay, as a pure state machine.
///
/// It owns every rule of ``WebSocketRelayClient`` — connection lifecycle, reconnect backoff, the
/// publish queue, `OK` matching, resubscription and authentication — and does no I/O: each input
/// returns the ``Action``s the driver must perform. That keeps the rules testable without sockets
/// (see `RelayConnectionStateMachineTests`); the actor only moves bytes and resumes continuations.
/// The delivery rules themselves are listed on ``WebSocketRelayClient`` and in PROTOCOL.md §9.
struct RelayConnectionStateMachine {
    enum ConnectionState: Equatable {
        case idle
        case connecting
        case connected
        case backingOff
        case closed
    }

    /// What the driver must do, in order.
    enum Action: Equatable {
        /// Open a new socket, then report ``connectionOpened()`` or ``connectionDropped(reason:)``.
        case openConnection
        /// Write one message on the open socket.
        case send(ClientMessage)
        /// Close the current socket (the client was closed).
        case closeSocket
        /// Call ``reconnectDue()`` after this delay (replacing any earlier timer).
        case scheduleReconnect(after: Duration)
        /// Give `token`'s publisher its outcome.
        case completePublish(token: Int, PublishOutcome)
        /// Give a subscription one item.
        case deliver(subscription: String, SubscriptionItem)
        /// End a subscription's stream.
        case finishSubscription(String)
        /// Resume everyone waiting in `connect()`: `nil` when connected, else why not.
        case completeConnect(RelayError?)
        /// Tell the status observer; emitted once per change of the status's kind.
        case reportStatus(RelayConnectionStatus)
    }

    struct Pending {
        let token: Int
        let event: NostrEvent
        /// `false` once the publisher got its outcome (a timed-out, already sent event stays as a
        /// placeholder so that a late `OK` with an empty id is not given to the next event).
        var awaited = true
        var sent = false
        var everSent = false
        var authRetried = false
    }

    struct Subscription {
        let filters: [NostrFilter]
        var seen = Set<String>()
        var eoseDelivered = false
        var waitingForAuth = false
        var authRetried = false
    }

    let url: String
    let configuration: RelayClientConfiguration
    private let random: RandomSource

    private(set) var state: ConnectionState = .idle
    /// Failed attempts since the relay last answered; the next reconnect waits as attempt
    /// `attempt + 1`. An opened socket does not reset it, an answer does (``proven``): a relay
    /// that accepts every socket and drops it at once must not be retried at the first delay
    /// forever (issue 31, D9).
    private(set) var attempt = 0
    /// Whether the relay answered a request on the current connection.
    private(set) var proven = false
    /// The last status reported, so that each change is reported once.
    private(set) var reportedStatus: RelayConnectionStatus?
    private(set) var pending: [Pending] = []
    private(set) var subscriptions: [String: Subscription] = [:]
    private(set) var connectWaiters = 0
    private var challenge: String?
    private var authEventId: String?
    private(set) var authenticated = false

    private(set) var stats = RelayClientStats()
    private(set) var notices: [String] = []
    private(set) var protocolErrors: [RelayError] = []
    private(set) var lastConnectionError: RelayError?

    /// Kept for diagnostics; the oldest are dropped beyond this.
    static let diagnosticsLimit = 50

    init(url: String, configuration: RelayClientConfiguration, random: RandomSource = SystemRandom()) {
        self.url = url
        self.configuration = configuration
        self.random = random
    }

    var isConnected: Bool { state == .connected }
    /// Events whose publisher still waits for an outcome.
    var awaitedCount: Int { pending.filter(\.awaited).count }
    private var hasWork: Bool { !subscriptions.isEmpty || pending.contains(where: \.awaited) || connectWaiters > 0 }
    private static let closedError = RelayError(.clientClosed, "client was closed")

    // MARK: requests from the API

    mutating func connectRequested() -> [Action] {
        switch state {
        case .connected: return [.completeConnect(nil)]
        case .closed: return [.completeConnect(Self.closedError)]
        case .idle, .backingOff:
            connectWaiters += 1
            return open()
        case .connecting:
            connectWaiters += 1
            return []
        }
    }

    mutating func publishRequested(token: Int, event: NostrEvent) -> [Action] {
        if state == .closed { return [.completePublish(token: token, .failed(Self.closedError))] }
        pending.append(Pending(token: token, event: event))
        if state == .connected { return sendPending(at: pending.count - 1) }
        return ensureConnecting()
    }

    mutating func subscribeRequested(id: String, filters: [NostrFilter]) -> [Action] {
        if state == .closed { return [.deliver(subscription: id, .closed(message: "error: client was closed")), .finishSubscription(id)] }
        subscriptions[id] = Subscription(filters: filters)
        if state == .connected { return [.send(.req(subscriptionId: id, filters: filters))] }
        return ensureConnecting()
    }

    mutating func unsubscribeRequested(id: String) -> [Action] {
        guard subscriptions.removeValue(forKey: id) != nil else { return [] }
        var actions: [Action] = []
        if state == .connected { actions.append(.send(.close(subscriptionId: id))) }
        actions.append(.finishSubscription(id))
        return actions
    }

    mutating func closeRequested() -> [Action] {
        guard state != .closed else { return [] }
        let wasConnected = state == .connected
        state = .closed
        var actions: [Action] = subscriptions.keys.sorted().map { .finishSubscription($0) }
        subscriptions.removeAll()
        for p in pending where p.awaited { actions.append(.completePublish(token: p.token, .failed(Self.closedError))) }
        pending.removeAll()
        if connectWaiters > 0 { actions.append(.completeConnect(Self.closedError)); connectWaiters = 0 }
        if wasConnected { actions.append(.closeSocket) }
        return actions
    }

    mutating func publishTimedOut(token: Int) -> [Action] {
        guard let i = pending.firstIndex(where: { $0.token == token }), pending[i].awaited else { return [] }
        if pending[i].sent {
            pending[i].awaited = false
            return [.completePublish(token: token, .timedOut(wasSent: true))]
        }
        let everSent = pending[i].everSent
        pending.remove(at: i)
        return [.completePublish(token: token, .timedOut(wasSent: everSent))]
    }

    // MARK: connection events

    /// The socket opened (after `closed`, the driver is told to close it again).
    mutating func connectionOpened() -> [Action] {
        guard state == .connecting else { return state == .closed ? [.closeSocket] : [] }
        state = .connected
        proven = false
        stats.connections += 1
        var actions: [Action] = []
        if connectWaiters > 0 { actions.append(.completeConnect(nil)); connectWaiters = 0 }
        for id in subscriptions.keys.sorted() where !subscriptions[id]!.waitingForAuth {
            actions.append(.send(.req(subscriptionId: id, filters: subscriptions[id]!.filters)))
        }
        for i in pending.indices where pending[i].awaited {
            if pending[i].everSent { stats.resentEvents += 1 }
            actions += sendPending(at: i)
        }
        return actions
    }

    mutating func connectionDropped(reason: String) -> [Action] {
        guard state != .closed, state != .idle else { return [] }
        proven = false
        let error = RelayError(.connectionFailed, reason)
        lastConnectionError = error
        stats.disconnects += 1
        authenticated = false
        challenge = nil
        authEventId = nil
        pending.removeAll { !$0.awaited }
        for i in pending.indices { pending[i].sent = false }
        for id in subscriptions.keys { subscriptions[id]!.waitingForAuth = false }
        var actions: [Action] = []
        if connectWaiters > 0 { actions.append(.completeConnect(error)); connectWaiters = 0 }
        guard hasWork else {
            state = .idle
            return actions + report(.disconnected(reason: reason))
        }
        attempt += 1
        if let max = configuration.reconnect.maxAttempts, attempt > max {
            state = .idle
            attempt = 0
            return actions + giveUp(error) + report(.disconnected(reason: reason))
        }
        state = .backingOff
        let delay = configuration.reconnect.delay(attempt: attempt, using: random)
        actions.append(.scheduleReconnect(after: delay))
        return actions + report(.reconnecting(attempt: attempt, retryIn: delay, reason: reason))
    }

    mutating func reconnectDue() -> [Action] {
        guard state == .backingOff else { return [] }
        if hasWork { return open() }
        state = .idle
        return []
    }

    mutating func textReceived(_ text: String) -> [Action] {
        let message: RelayMessage
        do { message = try RelayMessage(json: text) } catch {
            record(error)
            guard error.code == .invalidEvent else { stats.malformedMessages += 1; return [] }
            // A well-formed EVENT message carrying a broken event: tell its subscription.
            stats.invalidEvents += 1
            if let sub = (try? JSONParser.parse(text))?.arrayValue?[1].stringValue, subscriptions[sub] != nil {
                return [.deliver(subscription: sub, .invalidEvent(error))]
            }
            return []
        }
        return received(message)
    }

    // MARK: private

    private mutating func open() -> [Action] {
        state = .connecting
        return [.openConnection]
    }

    private mutating func ensureConnecting() -> [Action] {
        state == .idle ? open() : []
    }

    private mutating func sendPending(at i: Int) -> [Action] {
        guard state == .connected else { return [] }
        pending[i].sent = true
        pending[i].everSent = true
        return [.send(.event(pending[i].event))]
    }

    /// After `maxAttempts`: awaited events fail, subscriptions end with `.closed`.
    private mutating func giveUp(_ error: RelayError) -> [Action] {
        var actions: [Action] = pending.filter(\.awaited).map { .completePublish(token: $0.token, .failed(error)) }
        pending.removeAll()
        for id in subscriptions.keys.sorted() {
            actions += [.deliver(subscription: id, .closed(message: "error: \(error.detail)")), .finishSubscription(id)]
        }
        subscriptions.removeAll()
        return actions
    }

    private mutating func record(_ error: RelayError) {
        protocolErrors.append(error)
        if protocolErrors.count > Self.diagnosticsLimit { protocolErrors.removeFirst(protocolErrors.count - Self.diagnosticsLimit) }
    }

    /// The status action when `status` is of another kind than the last one reported.
    private mutating func report(_ status: RelayConnectionStatus) -> [Action] {
        guard reportedStatus?.kind != status.kind else { return [] }
        reportedStatus = status
        return [.reportStatus(status)]
    }

    /// A relay message answering a request (`OK`, `EVENT`, `EOSE`, `CLOSED`) proves the
    /// connection: the backoff starts over and ``RelayConnectionStatus/connected`` is reported.
    /// `NOTICE` and `AUTH` do not: a relay can send them unasked before dropping the socket.
    private mutating func received(_ message: RelayMessage) -> [Action] {
        var actions = answered(message)
        switch message {
        case .ok, .event, .eose, .closed:
            if state == .connected, !proven {
                proven = true
                attempt = 0
                actions += report(.connected)
            }
        case .notice, .auth:
            break
        }
        return actions
    }

    private mutating func answered(_ message: RelayMessage) -> [Action] {
        switch message {
        case .ok(let ok): return receivedOK(ok)
        case .event(let subId, let event): return receivedEvent(subId, event)
        case .eose(let subId):
            guard subscriptions[subId] != nil, !subscriptions[subId]!.eoseDelivered else { return [] }
            subscriptions[subId]!.eoseDelivered = true
            return [.deliver(subscription: subId, .eose)]
        case .closed(let subId, let text):
            guard var sub = subscriptions[subId] else { return [] }
            if MachineReadablePrefix(message: text) == .authRequired, configuration.authSigner != nil, !sub.authRetried {
                sub.authRetried = true
                sub.waitingForAuth = true
                subscriptions[subId] = sub
                return authenticated ? resubscribeAfterAuth() : authenticateIfPossible()
            }
            subscriptions[subId] = nil
            return [.deliver(subscription: subId, .closed(message: text)), .finishSubscription(subId)]
        case .notice(let text):
            notices.append(text)
            if notices.count > Self.diagnosticsLimit { notices.removeFirst(notices.count - Self.diagnosticsLimit) }
            return []
        case .auth(let c):
            challenge = c
            authenticated = false
            authEventId = nil
            return authenticateIfPossible()
        }
    }

    /// `OK`s are matched by event id; an `OK` with an empty id (nostr-relay 1.14 on rejection) goes to
    /// the oldest sent event, which is right because a relay answers one connection in order.
    private mutating func receivedOK(_ ok: OKMessage) -> [Action] {
        if let authEventId, ok.eventId == authEventId {
            if !ok.accepted {
                authenticated = false
                record(RelayError(.rejected, "AUTH refused: \(ok.message)"))
            }
            return []
        }
        var index = pending.firstIndex { $0.sent && $0.event.id == ok.eventId }
        if index == nil, ok.eventId.isEmpty { index = pending.firstIndex { $0.sent } }
        guard let i = index else { stats.unmatchedOKs += 1; return [] }
        let p = pending[i]
        if !ok.isStored, ok.prefix == .authRequired, configuration.authSigner != nil, !p.authRetried, p.awaited {
            // NIP-42: authenticate, then send the event once more.
            pending[i].authRetried = true
            pending[i].sent = false
            return authenticated ? sendPending(at: i) : authenticateIfPossible()
        }
        pending.remove(at: i)
        guard p.awaited else { return [] }
        return [.completePublish(token: p.token, ok.isStored ? .accepted(ok) : .rejected(ok))]
    }

    private mutating func receivedEvent(_ subId: String, _ event: NostrEvent) -> [Action] {
        guard let sub = subscriptions[subId] else { stats.eventsForUnknownSubscriptions += 1; return [] }
        if configuration.verifyIncomingEvents {
            do { try event.verify() } catch {
                stats.invalidEvents += 1
                return [.deliver(subscription: subId, .invalidEvent(RelayError(.invalidEvent, "event \(event.id.prefix(16))…: \(error.detail)")))]
            }
            guard sub.filters.anyMatches(event) else {
                stats.invalidEvents += 1
                return [.deliver(subscription: subId, .invalidEvent(RelayError(.invalidEvent, "event \(event.id.prefix(16))… does not match the subscription's filters")))]
            }
        }
        guard subscriptions[subId]!.seen.insert(event.id).inserted else { stats.duplicateEvents += 1; return [] }
        return [.deliver(subscription: subId, .event(event))]
    }

    /// Answers the current challenge once. Relays handle one connection's messages in order, so
    /// whatever is sent after the AUTH is judged as authenticated: events and REQs waiting for auth go
    /// out right away instead of waiting for an `OK` that some relays (nostr-relay 1.14) never send.
    private mutating func authenticateIfPossible() -> [Action] {
        guard let signer = configuration.authSigner, let challenge, state == .connected, authEventId == nil else { return [] }
        let event: NostrEvent
        do { event = try NIP42.authEvent(relayURL: url, challenge: challenge, signer: signer) } catch {
            record(RelayError(.connectionFailed, "could not sign AUTH: \(error)"))
            return []
        }
        authEventId = event.id
        authenticated = true
        stats.authAttempts += 1
        var actions: [Action] = [.send(.auth(event))]
        actions += resubscribeAfterAuth()
        for j in pending.indices where !pending[j].sent && pending[j].awaited { actions += sendPending(at: j) }
        return actions
    }

    private mutating func resubscribeAfterAuth() -> [Action] {
        var actions: [Action] = []
        for id in subscriptions.keys.sorted() where subscriptions[id]!.waitingForAuth {
            subscriptions[id]!.waitingForAuth = false
            actions.append(.send(.req(subscriptionId: id, filters: subscriptions[id]!.filters)))
        }
        return actions
    }
}
