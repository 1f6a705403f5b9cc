import InviteKitCrypto
import InviteKitNostr

/// Kind-445 group events (PROTOCOL §5.4): signed by a fresh secp256k1 key per event, content =
/// ``GroupEventCipher`` over a serialized MLSMessage. Tags by profile:
/// - MIP (MDK 0.8.0, MIP-03): exactly `["h", <nostr_group_id hex>]` then `["encoding", "base64"]`;
///   application messages and commits are PrivateMessages, a SelfRemove a PublicMessage.
/// - current (MDK v0.9.14 `transport-nostr-peeler/src/event.rs:64-135`; `transports/nostr.md`):
///   exactly one `h` and at most one NIP-40 `expiration`, nothing else; handshakes are
///   PublicMessages.
package enum MarmotGroupEvent {
    package static let kind = MarmotProfile.groupEventKind

    /// Builds and signs a kind-445 event carrying `mlsMessage`. The signing key is drawn from `rng`
    /// and dropped, so no two events share an author (MIP-03).
    /// `expiration` (current profile, application messages of a group with retention) adds the
    /// NIP-40 tag.
    package static func make(mlsMessage: [UInt8], nostrGroupID: [UInt8], key: SecureBytes, profile: MarmotWireProfile = .mip,
                            expiration: Int64? = nil, createdAt: Int64 = UnixTime.now(),
                            rng: RandomSource = SystemRandom()) throws -> NostrEvent {
        guard nostrGroupID.count == 32 else { throw MLSError(.invalidValue, "nostr_group_id must be 32 bytes") }
        let content = try GroupEventCipher.seal(mlsMessage, key: key, rng: rng)
        let signer = Secp256k1.PrivateKey(using: rng)
        var tags = [["h", Hex.encode(nostrGroupID)]]
        switch profile {
        case .mip: tags.append(["encoding", "base64"])
        case .current: if let expiration { tags.append(["expiration", String(expiration)]) }
        }
        let template = EventTemplate(kind: kind, content: content, tags: tags, createdAt: createdAt)
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
    ///
    /// In the current profile the tags are exactly one `h` and at most one `expiration` (a
    /// decimal Unix time); anything else, `encoding` included, is refused before any decryption,
    /// as MDK v0.9.14 does (`transport-nostr-peeler/src/event.rs:132`).
    package static func envelope(_ event: NostrEvent, profile: MarmotWireProfile = .mip,
                                 now: Int64 = UnixTime.now()) throws -> (nostrGroupID: [UInt8], sealed: [UInt8]) {
        guard event.kind == kind else { throw MLSError(.invalidEvent, "kind \(event.kind) is not 445") }
        do { try event.verify() } catch { throw MLSError(.invalidSignature, "kind-445 event: \(error)") }
        let groupID = try nostrGroupID(of: event)
        switch profile {
        case .mip:
            guard event.tags.contains(where: { $0.count >= 2 && $0[0] == "encoding" && $0[1] == "base64" }) else {
                throw MLSError(.invalidEvent, "kind-445 event lacks [\"encoding\", \"base64\"]")
            }
        case .current:
            var expirations = 0
            for tag in event.tags where tag.first != "h" {
                guard tag.first == "expiration", tag.count == 2, let t = Int64(tag[1]), t >= 0, String(t) == tag[1] else {
                    throw MLSError(.invalidEvent, "kind-445 event contains a tag other than h or expiration")
                }
                expirations += 1
            }
            guard expirations <= 1 else { throw MLSError(.invalidEvent, "kind-445 event has \(expirations) expiration tags") }
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
    package static func open(_ event: NostrEvent, keys: [SecureBytes], profile: MarmotWireProfile = .mip,
                             now: Int64 = UnixTime.now()) throws -> (mlsMessage: [UInt8], keyIndex: Int) {
        let (_, sealed) = try envelope(event, profile: profile, now: now)
        for (i, key) in keys.enumerated() {
            if let opened = try? GroupEventCipher.open(bytes: sealed, key: key) { return (opened, i) }
        }
        throw MLSError(.decryptionFailed, "no retained epoch key opens this kind-445 event")
    }
}
