import InviteKitCrypto
import InviteKitNostr
import NIOCore
import WebSocketKit

/// NIP-01 over one WebSocket (`ws://`, or `wss://` with TLS through swift-nio-ssl), with NIP-42 `AUTH`.
///
/// Delivery rules (see PROTOCOL.md §9):
/// - `publish` waits for the relay's `OK` up to its timeout. Events published while disconnected are
///   **queued** and sent in order once connected; events sent but not yet acknowledged when the
///   connection drops are **re-sent** after reconnecting (a relay answers a re-sent event `duplicate:`,
///   which counts as stored). If the timeout passes first the caller gets `.timedOut(wasSent:)` and an
///   unsent event is withdrawn from the queue. Nothing is dropped without an outcome.
/// - `OK`s are matched by event id; an `OK` with an empty id (nostr-relay 1.14 on rejection) is given
///   to the oldest event still awaiting its `OK`, which is right because relays answer one
///   connection's messages in order.
/// - Subscriptions survive reconnects: the REQ is re-sent with the same filters, events already
///   delivered are suppressed by id, and `.eose` is delivered once.
/// - The connection opens lazily on first use (or ``connect()``), and after a drop it reconnects with
///   ``ReconnectPolicy`` backoff while there is work (a subscription or a queued event).
public actor WebSocketRelayClient: NostrRelayConnection {
    public nonisolated let url: String
    public let configuration: RelayClientConfiguration
    private let endpoint: Result<RelayEndpoint, RelayError>

    private enum State {
        case idle
        case connecting
        case connected(WebSocket)
        case backingOff
        case closed
    }

    private enum Inbound: Sendable {
        case opened(WebSocket)
        case text(String)
        case dropped(String)
    }

    private struct Pending {
        let token: Int
        let event: NostrEvent
        var continuation: CheckedContinuation<PublishOutcome, Never>?
        var sent = false
        var everSent = false
        var authRetried = false
    }

    private struct Subscription {
        let filters: [NostrFilter]
        let continuation: AsyncStream<SubscriptionItem>.Continuation
        var seen = Set<String>()
        var eoseDelivered = false
        var waitingForAuth = false
        var authRetried = false
    }

    private var state: State = .idle
    private var generation = 0
    private var attempt = 0
    private var reconnectTask: Task<Void, Never>?
    private var pending: [Pending] = []
    private var nextToken = 0
    private var subscriptions: [String: Subscription] = [:]
    private var connectWaiters: [CheckedContinuation<Result<Void, RelayError>, Never>] = []
    private var challenge: String?
    /// Id of the AUTH event sent for the current challenge (its `OK`, if the relay sends one, is matched by id only).
    private var authEventId: String?
    private var authenticated = false

    public private(set) var stats = RelayClientStats()
    /// The latest `NOTICE` messages (at most 50), oldest first.
    public private(set) var notices: [String] = []
    /// The latest unparseable relay messages (at most 50), as typed errors.
    public private(set) var protocolErrors: [RelayError] = []
    /// The last error that ended a connection or connection attempt.
    public private(set) var lastConnectionError: RelayError?

    public init(url: String, configuration: RelayClientConfiguration = RelayClientConfiguration()) {
        self.url = url
        self.configuration = configuration
        do { endpoint = .success(try RelayEndpoint(url)) } catch { endpoint = .failure(error) }
    }

    public var isConnected: Bool { if case .connected = state { return true } else { return false } }
    /// Whether a NIP-42 `AUTH` was accepted on the current connection.
    public var isAuthenticated: Bool { authenticated }
    /// Events awaiting an `OK` (sent or queued).
    public var pendingCount: Int { pending.filter { $0.continuation != nil }.count }

    // MARK: public operations

    /// Opens the connection now and waits for it (otherwise it opens on first use).
    public func connect() async throws(RelayError) {
        if case .connected = state { return }
        if case .closed = state { throw RelayError(.clientClosed, "client was closed") }
        if case .failure(let e) = endpoint { throw e }
        let result = await withCheckedContinuation { (c: CheckedContinuation<Result<Void, RelayError>, Never>) in
            connectWaiters.append(c)
            if case .idle = state { openConnection() } else if case .backingOff = state {
                reconnectTask?.cancel()
                openConnection()
            }
        }
        try result.get()
    }

    public func publish(_ event: NostrEvent, timeout: Duration) async -> PublishOutcome {
        if case .closed = state { return .failed(RelayError(.clientClosed, "client was closed")) }
        if case .failure(let e) = endpoint { return .failed(e) }
        let token = nextToken
        nextToken += 1
        return await withCheckedContinuation { (c: CheckedContinuation<PublishOutcome, Never>) in
            pending.append(Pending(token: token, event: event, continuation: c))
            if case .connected = state { sendPending(at: pending.count - 1) } else { ensureConnecting() }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(token)
            }
        }
    }

    public func subscribe(_ filters: [NostrFilter]) async throws(RelayError) -> RelaySubscription {
        if case .closed = state { throw RelayError(.clientClosed, "client was closed") }
        if case .failure(let e) = endpoint { throw e }
        let id = "ik-" + Hex.encode(SystemRandom().bytes(8))
        let (stream, continuation) = AsyncStream<SubscriptionItem>.makeStream(bufferingPolicy: .unbounded)
        subscriptions[id] = Subscription(filters: filters, continuation: continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        if case .connected = state { send(.req(subscriptionId: id, filters: filters)) } else { ensureConnecting() }
        return RelaySubscription(id: id, items: stream) { [weak self] in await self?.unsubscribe(id) }
    }

    /// Sends `CLOSE` for `id` and finishes its stream. Idempotent.
    public func unsubscribe(_ id: String) {
        guard let sub = subscriptions.removeValue(forKey: id) else { return }
        if case .connected = state { send(.close(subscriptionId: id)) }
        sub.continuation.finish()
    }

    public func close() async {
        if case .closed = state { return }
        let old = state
        state = .closed
        reconnectTask?.cancel()
        for (_, sub) in subscriptions { sub.continuation.finish() }
        subscriptions.removeAll()
        let closing = pending
        pending.removeAll()
        for p in closing { p.continuation?.resume(returning: .failed(RelayError(.clientClosed, "client was closed"))) }
        for w in connectWaiters { w.resume(returning: .failure(RelayError(.clientClosed, "client was closed"))) }
        connectWaiters.removeAll()
        // Not awaited: a half-open peer never answers the close frame (the ping timeout ends it then).
        if case .connected(let ws) = old { ws.close(code: .normalClosure, promise: nil) }
    }

    // MARK: connection lifecycle

    private var hasWork: Bool { !subscriptions.isEmpty || pending.contains { $0.continuation != nil } || !connectWaiters.isEmpty }

    private func ensureConnecting() {
        if case .idle = state { openConnection() }
    }

    private func openConnection() {
        guard case .success(let ep) = endpoint else { return }
        state = .connecting
        generation += 1
        let gen = generation
        let (stream, inbound) = AsyncStream<Inbound>.makeStream(bufferingPolicy: .unbounded)
        let ping = configuration.pingInterval
        let wsClient = configuration.tlsConfiguration.map { SharedWebSocketClient.make(tls: $0) } ?? SharedWebSocketClient.client
        Task {
            do {
                try await wsClient.connect(
                    scheme: ep.scheme, host: ep.host, port: ep.port, path: ep.path, query: ep.query
                ) { ws in
                    if let ping { ws.pingInterval = .nanoseconds(Int64(ReconnectPolicy.seconds(ping) * 1e9)) }
                    ws.onText { _, text in inbound.yield(.text(text)) }
                    ws.onBinary { _, buffer in inbound.yield(.text(String(buffer: buffer))) }
                    ws.onClose.whenComplete { _ in
                        inbound.yield(.dropped("connection closed"))
                        inbound.finish()
                    }
                    inbound.yield(.opened(ws))
                }.get()
            } catch {
                inbound.yield(.dropped("connect failed: \(error)"))
                inbound.finish()
            }
        }
        Task { [weak self] in
            for await item in stream {
                guard let self else { return }
                await self.handle(item, generation: gen)
            }
        }
    }

    private func handle(_ item: Inbound, generation gen: Int) async {
        guard gen == generation else {
            if case .opened(let ws) = item { ws.close(code: .goingAway, promise: nil) }
            return
        }
        switch item {
        case .opened(let ws):
            if case .closed = state { ws.close(code: .normalClosure, promise: nil); return }
            state = .connected(ws)
            attempt = 0
            stats.connections += 1
            for w in connectWaiters { w.resume(returning: .success(())) }
            connectWaiters.removeAll()
            for (id, sub) in subscriptions where !sub.waitingForAuth { send(.req(subscriptionId: id, filters: sub.filters)) }
            for i in pending.indices where pending[i].continuation != nil {
                if pending[i].everSent { stats.resentEvents += 1 }
                sendPending(at: i)
            }
        case .text(let text):
            let message: RelayMessage
            do { message = try RelayMessage(json: text) } catch {
                record(error)
                if error.code == .invalidEvent {
                    // A well-formed EVENT message carrying a broken event: tell its subscription.
                    stats.invalidEvents += 1
                    if let sub = (try? JSONParser.parse(text))?.arrayValue?[1].stringValue, let s = subscriptions[sub] {
                        s.continuation.yield(.invalidEvent(error))
                    }
                } else {
                    stats.malformedMessages += 1
                }
                return
            }
            dispatch(message)
        case .dropped(let reason):
            if case .closed = state { return }
            dropped(RelayError(.connectionFailed, reason))
        }
    }

    private func dropped(_ error: RelayError) {
        lastConnectionError = error
        stats.disconnects += 1
        authenticated = false
        challenge = nil
        authEventId = nil
        // Placeholders of events that timed out belong to the dead connection.
        pending.removeAll { $0.continuation == nil }
        for i in pending.indices { pending[i].sent = false }
        for id in subscriptions.keys { subscriptions[id]!.waitingForAuth = false }
        for w in connectWaiters { w.resume(returning: .failure(error)) }
        connectWaiters.removeAll()
        guard hasWork else { state = .idle; return }
        attempt += 1
        if let max = configuration.reconnect.maxAttempts, attempt > max {
            state = .idle
            attempt = 0
            giveUp(error)
            return
        }
        state = .backingOff
        let delay = configuration.reconnect.delay(attempt: attempt)
        let gen = generation
        reconnectTask = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.reconnectDue(generation: gen)
        }
    }

    private func reconnectDue(generation gen: Int) {
        guard gen == generation, case .backingOff = state else { return }
        if hasWork { openConnection() } else { state = .idle }
    }

    /// After `maxAttempts`: queued events fail, subscriptions end with `.closed`.
    private func giveUp(_ error: RelayError) {
        let failing = pending
        pending.removeAll()
        for p in failing { p.continuation?.resume(returning: .failed(error)) }
        for (_, sub) in subscriptions {
            sub.continuation.yield(.closed(message: "error: \(error.detail)"))
            sub.continuation.finish()
        }
        subscriptions.removeAll()
    }

    // MARK: sending

    @discardableResult
    private func send(_ message: ClientMessage) -> Bool {
        guard case .connected(let ws) = state else { return false }
        ws.send(String(decoding: message.jsonBytes, as: UTF8.self), promise: nil)
        return true
    }

    private func sendPending(at i: Int) {
        if send(.event(pending[i].event)) {
            pending[i].sent = true
            pending[i].everSent = true
        }
    }

    private func expire(_ token: Int) {
        guard let i = pending.firstIndex(where: { $0.token == token }), let c = pending[i].continuation else { return }
        if pending[i].sent {
            // Keep a placeholder so that a late OK (possibly with an empty id) is not given to the next event.
            pending[i].continuation = nil
            c.resume(returning: .timedOut(wasSent: true))
        } else {
            let everSent = pending[i].everSent
            pending.remove(at: i)
            c.resume(returning: .timedOut(wasSent: everSent))
        }
    }

    private func record(_ error: RelayError) {
        protocolErrors.append(error)
        if protocolErrors.count > 50 { protocolErrors.removeFirst(protocolErrors.count - 50) }
    }

    // MARK: receiving

    private func dispatch(_ message: RelayMessage) {
        switch message {
        case .ok(let ok): handleOK(ok)
        case .event(let subId, let event): handleEvent(subId, event)
        case .eose(let subId):
            guard var sub = subscriptions[subId] else { return }
            if !sub.eoseDelivered {
                sub.eoseDelivered = true
                subscriptions[subId] = sub
                sub.continuation.yield(.eose)
            }
        case .closed(let subId, let text):
            guard var sub = subscriptions[subId] else { return }
            if MachineReadablePrefix(message: text) == .authRequired, configuration.authSigner != nil, !sub.authRetried {
                sub.authRetried = true
                sub.waitingForAuth = true
                subscriptions[subId] = sub
                if authenticated { resubscribeAfterAuth() } else { authenticateIfPossible() }
                return
            }
            subscriptions[subId] = nil
            sub.continuation.yield(.closed(message: text))
            sub.continuation.finish()
        case .notice(let text):
            notices.append(text)
            if notices.count > 50 { notices.removeFirst(notices.count - 50) }
        case .auth(let c):
            challenge = c
            authenticated = false
            authEventId = nil
            authenticateIfPossible()
        }
    }

    private func handleOK(_ ok: OKMessage) {
        if let authEventId, ok.eventId == authEventId {
            if !ok.accepted {
                authenticated = false
                record(RelayError(.rejected, "AUTH refused: \(ok.message)"))
            }
            return
        }
        var index = pending.firstIndex { $0.sent && $0.event.id == ok.eventId }
        if index == nil, ok.eventId.isEmpty { index = pending.firstIndex { $0.sent } }
        guard let i = index else { stats.unmatchedOKs += 1; return }
        let p = pending[i]
        if !ok.isStored, ok.prefix == .authRequired, configuration.authSigner != nil, !p.authRetried, p.continuation != nil {
            // NIP-42: authenticate, then send the event once more.
            pending[i].authRetried = true
            pending[i].sent = false
            if authenticated { sendPending(at: i) } else { authenticateIfPossible() }
            return
        }
        pending.remove(at: i)
        p.continuation?.resume(returning: ok.isStored ? .accepted(ok) : .rejected(ok))
    }

    private func handleEvent(_ subId: String, _ event: NostrEvent) {
        guard var sub = subscriptions[subId] else { stats.eventsForUnknownSubscriptions += 1; return }
        if configuration.verifyIncomingEvents {
            do { try event.verify() } catch {
                stats.invalidEvents += 1
                sub.continuation.yield(.invalidEvent(RelayError(.invalidEvent, "event \(event.id.prefix(16))…: \(error.detail)")))
                return
            }
            guard sub.filters.anyMatches(event) else {
                stats.invalidEvents += 1
                sub.continuation.yield(.invalidEvent(RelayError(.invalidEvent, "event \(event.id.prefix(16))… does not match the subscription's filters")))
                return
            }
        }
        guard sub.seen.insert(event.id).inserted else { stats.duplicateEvents += 1; return }
        subscriptions[subId] = sub
        sub.continuation.yield(.event(event))
    }

    // MARK: NIP-42

    /// Answers the current challenge once. Relays handle one connection's messages in order, so
    /// whatever is sent after the AUTH is judged as authenticated: events and REQs waiting for auth go
    /// out right away instead of waiting for an `OK` that some relays (nostr-relay 1.14) never send.
    private func authenticateIfPossible() {
        guard let signer = configuration.authSigner, let challenge, case .connected = state, authEventId == nil else { return }
        do {
            let event = try NIP42.authEvent(relayURL: url, challenge: challenge, signer: signer)
            guard send(.auth(event)) else { return }
            authEventId = event.id
            authenticated = true
            stats.authAttempts += 1
            resubscribeAfterAuth()
            for j in pending.indices where !pending[j].sent && pending[j].continuation != nil { sendPending(at: j) }
        } catch {
            record(RelayError(.connectionFailed, "could not sign AUTH: \(error)"))
        }
    }

    private func resubscribeAfterAuth() {
        for (id, sub) in subscriptions where sub.waitingForAuth {
            subscriptions[id]!.waitingForAuth = false
            send(.req(subscriptionId: id, filters: sub.filters))
        }
    }
}
