import InviteKitMLS
import InviteKitRelay
import InviteKitNostr
import InviteKitCrypto

/// The joiner's side of a large-group Welcome (PROTOCOL §5.11), for the node: open the Welcome; if
/// its tree is out of band, fetch the chunk events (Welcome's relays, then the node's own) within
/// the join timeout; join. Every failure is typed (`tree_chunks_missing`, `tree_chunk_invalid`,
/// `tree_hash_mismatch`, …) and keeps the KeyPackage, so a re-sent Welcome still works.
public enum LargeGroupJoin {
    /// Joins from an opened gift wrap. `welcomeRelays` makes a pool over the Welcome's `relays`
    /// tag (the node passes one that connects, or `nil` to use only `ownRelays`).
    public static func join(gift: UnwrappedGift, recipient: Secp256k1.PrivateKey, store: KeyPackageStore,
                            welcomeRelays: (@Sendable ([String]) -> RelayPool)?, ownRelays: RelayPool?,
                            timeout: Duration = .seconds(30)) async throws(InviteKitError) -> MarmotGroup<MLSGroupState> {
        do {
            return try await joining(gift: gift, recipient: recipient, store: store, welcomeRelays: welcomeRelays, ownRelays: ownRelays, timeout: timeout)
        } catch {
            throw InviteKitError.from(error)
        }
    }

    private static func joining(gift: UnwrappedGift, recipient: Secp256k1.PrivateKey, store: KeyPackageStore,
                                welcomeRelays: (@Sendable ([String]) -> RelayPool)?, ownRelays: RelayPool?,
                                timeout: Duration) async throws -> MarmotGroup<MLSGroupState> {
        let opened = try MarmotGroup<MLSGroupState>.openWelcome(gift: gift, recipient: recipient, store: store)
        guard let reference = opened.treeChunks else { return try MarmotGroup.join(opened, store: store) }
        var pools: [RelayPool] = []
        let fromWelcome = welcomeRelays?(opened.relays)
        if let fromWelcome { pools.append(fromWelcome) }
        if let ownRelays { pools.append(ownRelays) }
        let events = await TreeChunkFetch.fetch(reference, from: pools, deadline: ContinuousClock.now.advanced(by: timeout))
        await fromWelcome?.close()
        return try MarmotGroup.join(opened, treeChunkEvents: events, store: store)
    }
}
