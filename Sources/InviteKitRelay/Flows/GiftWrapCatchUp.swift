import InviteKitCrypto
import InviteKitNostr

/// Fetching and opening the gift wraps addressed to one key
/// ([NIP-59](https://github.com/nostr-protocol/nips/blob/master/59.md)).
///
/// The filter is `{"kinds":[1059], "#p":[me]}` and never has `since`: wrap timestamps are randomized
/// up to two days into the past, so a `since` would silently skip recent wraps.
public enum GiftWrapCatchUp {
    /// What one catch-up did.
    public struct Report: Sendable {
        /// Every wrap fetched (deduplicated by id) and what each relay did.
        public let fetch: RelayFetchResult
        /// The unwrapped batch as handed to the consumer.
        public let batch: BatchResult<UnwrappedGift, NostrEvent>
    }

    /// `{"kinds":[1059],"#p":[recipient]}`: no `since`, on purpose.
    public static func filter(for recipient: Secp256k1.XOnlyPublicKey, limit: Int? = nil) -> NostrFilter {
        NostrFilter(kinds: [GiftWrap.wrapKind], tags: ["p": [recipient.hex]], limit: limit)
    }

    /// Fetches every stored wrap for `recipient` from the pool (until each relay's `EOSE` or the
    /// timeout), deduplicates by id, unwraps them as one batch (``unwrap(_:recipient:parallelism:)``:
    /// `GiftWrap.unwrapBatch` over the cores) and hands the batch to `consumer`
    /// (e.g. the join state machine). Hostile wraps land in `batch.failed`; none stops the batch.
    @discardableResult
    public static func run(
        pool: RelayPool, recipient: Secp256k1.PrivateKey, timeout: Duration = .relayTimeout,
        consumer: (BatchResult<UnwrappedGift, NostrEvent>) async -> Void
    ) async -> Report {
        let fetch = await pool.fetch([filter(for: recipient.publicKey)], timeout: timeout)
        let batch = await unwrap(fetch.events, recipient: recipient)
        await consumer(batch)
        return Report(fetch: fetch, batch: batch)
    }

    /// Catch-up followed by live delivery: the stored wraps arrive as one batch when every relay has
    /// sent `EOSE`; each later wrap arrives as a batch of one. Runs until the task is cancelled or
    /// every relay ends the subscription.
    public static func follow(
        pool: RelayPool, recipient: Secp256k1.PrivateKey,
        consumer: @Sendable (BatchResult<UnwrappedGift, NostrEvent>) async -> Void
    ) async {
        let sub = await pool.subscribe([filter(for: recipient.publicKey)])
        await withTaskCancellationHandler {
            var stored = [NostrEvent]()
            var live = false
            for await item in sub.items {
                switch item {
                case .event(let e, _):
                    if live { await consumer(GiftWrap.unwrapBatch([e], recipient: recipient)) } else { stored.append(e) }
                case .allEOSE:
                    live = true
                    await consumer(await unwrap(stored, recipient: recipient))
                    stored.removeAll()
                default: break
                }
            }
        } onCancel: {
            Task { await sub.close() }
        }
    }
}
