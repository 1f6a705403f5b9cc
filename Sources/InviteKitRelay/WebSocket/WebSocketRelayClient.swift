import InviteKitCrypto
import InviteKitNostr
import NIOCore
import WebSocketKit

/// NIP-01 over one WebSocket (`ws://`, or `wss://` with TLS through swift-nio-ssl), with NIP-42 `AUTH`.
///
/// The rules below live in ``RelayConnectionStateMachine``; this actor only does the I/O it asks for.
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
    public nonisolated let configuration: RelayClientConfiguration
    private let endpoint: Result<RelayEndpoint, RelayError>

    private enum Inbound: Sendable {
        case opened(WebSocket)
        case text(String)
        case dropped(String)
    }

    private var machine: RelayConnectionStateMachine
    private var socket: WebSocket?
    /// Socket generation: input from an older socket is ignored.
    private var generation = 0
    private var reconnectTask: Task<Void, Never>?
    private var nextToken = 0
    private var publishers: [Int: CheckedContinuation<PublishOutcome, Never>] = [:]
    private var streams: [String: AsyncStream<SubscriptionItem>.Continuation] = [:]
    private var connectWaiters: [CheckedContinuation<RelayError?, Never>] = []

    public var stats: RelayClientStats { machine.stats }
    /// The latest `NOTICE` messages (at most 50), oldest first.
    public var notices: [String] { machine.notices }
    /// The latest unparseable relay messages (at most 50), as typed errors.
    public var protocolErrors: [RelayError] { machine.protocolErrors }
    /// The last error that ended a connection or connection attempt.
    public var lastConnectionError: RelayError? { machine.lastConnectionError }
    /// The connection's status as last reported (`nil` before the first report).
    public var connectionStatus: RelayConnectionStatus? { machine.reportedStatus }

    /// `random` draws the reconnect jitter (``ReconnectPolicy``); `SeededRandom` replays it.
    public init(url: String, configuration: RelayClientConfiguration = RelayClientConfiguration(),
                random: RandomSource = SystemRandom()) {
        self.url = url
        self.configuration = configuration
        machine = RelayConnectionStateMachine(url: url, configuration: configuration, random: random)
        do { endpoint = .success(try RelayEndpoint(url)) } catch { endpoint = .failure(error) }
    }

    public var isConnected: Bool { machine.isConnected }
    /// Whether a NIP-42 `AUTH` was accepted on the current connection.
    public var isAuthenticated: Bool { machine.authenticated }
    /// Events awaiting an `OK` (sent or queued).
    public var pendingCount: Int { machine.awaitedCount }

    // MARK: public operations

    /// Opens the connection now and waits for it (otherwise it opens on first use).
    public func connect() async throws(RelayError) {
        if case .failure(let e) = endpoint { throw e }
        let error = await withCheckedContinuation { (c: CheckedContinuation<RelayError?, Never>) in
            connectWaiters.append(c)
            perform(machine.connectRequested())
        }
        if let error { throw error }
    }

    /// ``connect()``, its error left to the first publish or subscription.
    public func prepare() async { try? await connect() }

    public func publish(_ event: NostrEvent, timeout: Duration) async -> PublishOutcome {
        if case .failure(let e) = endpoint { return .failed(e) }
        let token = nextToken
        nextToken += 1
        return await withCheckedContinuation { (c: CheckedContinuation<PublishOutcome, Never>) in
            publishers[token] = c
            perform(machine.publishRequested(token: token, event: event))
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(token)
            }
        }
    }

    public func subscribe(_ filters: [NostrFilter]) async throws(RelayError) -> RelaySubscription {
        if machine.state == .closed { throw RelayError(.clientClosed, "client was closed") }
        if case .failure(let e) = endpoint { throw e }
        let id = "ik-" + Hex.encode(SystemRandom().bytes(8))
        let (stream, continuation) = AsyncStream<SubscriptionItem>.makeStream(bufferingPolicy: .unbounded)
        streams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        perform(machine.subscribeRequested(id: id, filters: filters))
        return RelaySubscription(id: id, items: stream) { [weak self] in await self?.unsubscribe(id) }
    }

    /// Sends `CLOSE` for `id` and finishes its stream. Idempotent.
    public func unsubscribe(_ id: String) {
        perform(machine.unsubscribeRequested(id: id))
    }

    public func close() async {
        reconnectTask?.cancel()
        perform(machine.closeRequested())
    }

    // MARK: I/O on the machine's behalf

    private func perform(_ actions: [RelayConnectionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .openConnection:
                reconnectTask?.cancel()
                openConnection()
            case .send(let message):
                socket?.send(String(decoding: message.jsonBytes, as: UTF8.self), promise: nil)
            case .closeSocket:
                // Not awaited: a half-open peer never answers the close frame (the ping timeout ends it then).
                socket?.close(code: .normalClosure, promise: nil)
                socket = nil
            case .scheduleReconnect(let delay):
                reconnectTask?.cancel()
                let gen = generation
                reconnectTask = Task { [weak self] in
                    try? await Task.sleep(for: delay)
                    guard !Task.isCancelled else { return }
                    await self?.reconnectDue(generation: gen)
                }
            case .completePublish(let token, let outcome):
                publishers.removeValue(forKey: token)?.resume(returning: outcome)
            case .deliver(let id, let item):
                streams[id]?.yield(item)
            case .finishSubscription(let id):
                streams.removeValue(forKey: id)?.finish()
            case .completeConnect(let error):
                let waiters = connectWaiters
                connectWaiters.removeAll()
                for w in waiters { w.resume(returning: error) }
            case .reportStatus(let status):
                configuration.statusObserver?(url, status)
            }
        }
    }

    private func expire(_ token: Int) { perform(machine.publishTimedOut(token: token)) }

    private func reconnectDue(generation gen: Int) {
        guard gen == generation else { return }
        perform(machine.reconnectDue())
    }

    private func openConnection() {
        guard case .success(let ep) = endpoint else { return }
        generation += 1
        socket = nil
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

    private func handle(_ item: Inbound, generation gen: Int) {
        guard gen == generation else {
            if case .opened(let ws) = item { ws.close(code: .goingAway, promise: nil) }
            return
        }
        switch item {
        case .opened(let ws):
            socket = ws
            perform(machine.connectionOpened())
        case .text(let text):
            perform(machine.textReceived(text))
        case .dropped(let reason):
            socket = nil
            perform(machine.connectionDropped(reason: reason))
        }
    }
}
