import InviteKitCrypto
import InviteKitNostr

/// Kind-445 group events as MDK 0.8.0 emits them (MIP-03): signed by a fresh secp256k1 key per
/// event, tags exactly `["h", <nostr_group_id hex>]` then `["encoding", "base64"]`, content =
/// ``GroupEventCipher`` over a serialized MLSMessage (a PrivateMessage for application messages and
/// commits; a PublicMessage for a SelfRemove proposal).
package enum MarmotGroupEvent {
    package static let kind = MarmotProfile.groupEventKind

    /// Builds and signs a kind-445 event carrying `mlsMessage`. The signing key is drawn from `rng`
    /// and dropped, so no two events share an author (MIP-03).
    package static func make(mlsMessage: [UInt8], nostrGroupID: [UInt8], key: SecureBytes, createdAt: Int64 = UnixTime.now(),
                            rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        guard nostrGroupID.count == 32 else { throw MLSError(.invalidValue, "nostr_group_id must be 32 bytes") }
        let content = try GroupEventCipher.seal(mlsMessage, key: key, rng: rng)
        let signer = Secp256k1.PrivateKey(using: rng)
        let template = EventTemplate(kind: kind, content: content,
                                     tags: [["h", Hex.encode(nostrGroupID)], ["encoding", "base64"]], createdAt: createdAt)
        return try template.signed(by: signer, using: rng)
    }

    /// The `nostr_group_id` of a kind-445 event: exactly one `h` tag holding 64 hex characters
    /// (MDK refuses none and several alike; PROTOCOL.md §5.4). The one rule for finding an
    /// event's group: a node looks its groups up by this too, never by the first `h` tag.
    package static func nostrGroupID(of event: NostrEvent) throws -> [UInt8] {
        let h = event.tags.filter { $0.first == "h" }
        guard h.count == 1 else { throw MLSError(.invalidEvent, h.isEmpty ? "kind-445 event has no h tag" : "kind-445 event has \(h.count) h tags") }
        guard h[0].count >= 2, h[0][1].utf8.count == 64, let id = Hex.decode(h[0][1], count: 32) else {
            throw MLSError(.invalidEvent, "h tag is not 64 hex characters")
        }
        return id
    }

    /// Checks the envelope of an inbound kind-445 event: kind, id and signature, one well-formed
    /// `h` tag, an `encoding` tag saying `base64` (MDK 0.8.0 reads tagless events only as legacy
    /// NIP-44 content, which InviteKit does not accept), and `created_at` no more than
    /// ``MarmotProfile/maxFutureSkew`` ahead of `now` nor ``MarmotProfile/maxEventAge`` behind it.
    /// Returns the `nostr_group_id` and the decoded (still encrypted) content.
    package static func envelope(_ event: NostrEvent, now: Int64 = UnixTime.now()) throws -> (nostrGroupID: [UInt8], sealed: [UInt8]) {
        guard event.kind == kind else { throw MLSError(.invalidEvent, "kind \(event.kind) is not 445") }
        do { try event.verify() } catch { throw MLSError(.invalidSignature, "kind-445 event: \(error)") }
        let groupID = try nostrGroupID(of: event)
        guard event.tags.contains(where: { $0.count >= 2 && $0[0] == "encoding" && $0[1] == "base64" }) else {
            throw MLSError(.invalidEvent, "kind-445 event lacks [\"encoding\", \"base64\"]")
        }
        let (ahead, aheadOverflow) = now.addingReportingOverflow(MarmotProfile.maxFutureSkew)
        guard aheadOverflow || event.createdAt <= ahead else {
            throw MLSError(.invalidEvent, "created_at \(event.createdAt) is more than \(MarmotProfile.maxFutureSkew) s ahead of now \(now)")
        }
        let (oldest, oldestOverflow) = now.subtractingReportingOverflow(MarmotProfile.maxEventAge)
        guard oldestOverflow || event.createdAt >= oldest else {
            throw MLSError(.invalidEvent, "created_at \(event.createdAt) is older than \(MarmotProfile.maxEventAge) s")
        }
        guard let sealed = Base64.decode(event.content) else { throw MLSError(.invalidEvent, "kind-445 content is not padded base64") }
        return (groupID, sealed)
    }

    /// Opens an inbound event with the first of `keys` (newest epoch first) that authenticates it,
    /// as MDK falls back over its retained epochs. Returns the MLSMessage bytes and the index of the
    /// key that opened them.
    package static func open(_ event: NostrEvent, keys: [SecureBytes], now: Int64 = UnixTime.now()) throws -> (mlsMessage: [UInt8], keyIndex: Int) {
        let (_, sealed) = try envelope(event, now: now)
        for (i, key) in keys.enumerated() {
            if let opened = try? GroupEventCipher.open(bytes: sealed, key: key) { return (opened, i) }
        }
        throw MLSError(.decryptionFailed, "no retained epoch key opens this kind-445 event")
    }
}
