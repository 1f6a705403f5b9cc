import InviteKitCrypto
import InviteKitNostr
import InviteKitRelay

/// Gift-wrap round trip through a relay: publish N wraps for a fresh recipient, catch them up with
/// the NIP-59 filter (no `since`), unwrap them as a batch. `invitekit bench --relay URL` calls this.
public enum RelayBench {
    /// - Parameters:
    ///   - count: wraps to send (the figure is 1,000).
    ///   - window: EVENTs in flight at once (the relay answers in order; pipelining hides the round trip).
    ///   - contentBytes: rumor content size.
    ///   - connections: WebSocket connections to publish over (a relay handles each connection's
    ///     messages one at a time; several let it overlap its work).
    public static func run(relayURL: String, count: Int = 1000, window: Int = 128, contentBytes: Int = 256,
                           connections: Int = 1, timeout: Duration = .seconds(60)) async throws -> RelayBenchReport {
        let clock = ContinuousClock()
        let sender = Secp256k1.PrivateKey()
        let recipient = Secp256k1.PrivateKey()
        let sealKey = try NIP44.ConversationKey(privateKey: sender, publicKey: recipient.publicKey)
        let content = String(repeating: "x", count: contentBytes)

        var wraps = [NostrEvent]()
        wraps.reserveCapacity(count)
        let wrapStart = clock.now
        for i in 0..<count {
            let rumor = EventTemplate(kind: GiftWrap.chatMessageKind, content: content, tags: [["n", String(i)]]).rumor(pubkey: sender.publicKey)
            wraps.append(try GiftWrap.wrap(rumor, from: sender, to: recipient.publicKey, sealKey: sealKey))
        }
        let wrapTime = clock.now - wrapStart

        let clients = (0..<max(1, connections)).map { _ in WebSocketRelayClient(url: relayURL) }
        defer { Task { for c in clients { await c.close() } } }
        for c in clients { try await c.connect() }
        let client = clients[0]

        let publishStart = clock.now
        var accepted = 0
        await withTaskGroup(of: Bool.self) { group in
            var next = 0
            func add() {
                let e = wraps[next]
                let c = clients[next % clients.count]
                next += 1
                group.addTask { await c.publish(e, timeout: timeout).isAccepted }
            }
            while next < min(window, wraps.count) { add() }
            for await ok in group {
                if ok { accepted += 1 }
                if next < wraps.count { add() }
            }
        }
        let publishTime = clock.now - publishStart

        let pool = RelayPool([client])
        let fetchStart = clock.now
        let fetch = await pool.fetch([GiftWrapCatchUp.filter(for: recipient.publicKey)], timeout: timeout)
        let fetchTime = clock.now - fetchStart

        let unwrapStart = clock.now
        let batch = await GiftWrapCatchUp.unwrap(fetch.events, recipient: recipient)
        let unwrapTime = clock.now - unwrapStart

        return RelayBenchReport(
            count: count, wrapTime: wrapTime, publishTime: publishTime, accepted: accepted, rejected: count - accepted,
            fetchTime: fetchTime, fetched: fetch.events.count, unwrapTime: unwrapTime,
            unwrapped: batch.successCount, unwrapFailures: batch.failureCount)
    }
}
