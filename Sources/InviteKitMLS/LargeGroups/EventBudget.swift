import InviteKitCrypto
import InviteKitNostr

/// The byte bound on every event InviteKit hands to a relay (PROTOCOL §5.11): the size of the
/// NIP-01 client message `["EVENT",<event JSON>]`, so a relay that measures the frame and one that
/// measures the event both accept it. Builders that would exceed it split the work or throw
/// `event_too_large` naming the bound.
public struct EventBudget: Sendable, Hashable {
    /// The one owner constant: many relays refuse events over 64 KiB.
    public static let defaultMaxEventBytes = 65_536
    /// Below this nothing useful fits (a gift-wrapped Welcome with a one-member tree).
    public static let minimumMaxEventBytes = 8_192
    /// `["EVENT",` and `]` around the event JSON (NIP-01).
    static let clientFrameBytes = 10

    public let maxEventBytes: Int

    /// - Throws: `invalid_value` below ``minimumMaxEventBytes``.
    public init(maxEventBytes: Int = EventBudget.defaultMaxEventBytes) throws {
        guard maxEventBytes >= Self.minimumMaxEventBytes else {
            throw MLSError(.invalidValue, "maxEventBytes \(maxEventBytes) is below the minimum \(Self.minimumMaxEventBytes)")
        }
        self.maxEventBytes = maxEventBytes
    }

    /// The default budget (65,536 bytes).
    public static var standard: EventBudget { EventBudget(unchecked: defaultMaxEventBytes) }

    init(unchecked maxEventBytes: Int) { self.maxEventBytes = maxEventBytes }

    /// The bytes `event` takes on the wire: its JSON plus the `["EVENT",…]` frame.
    public static func wireBytes(_ event: NostrEvent) -> Int { event.jsonBytes.count + clientFrameBytes }

    /// Whether `event` fits.
    public func fits(_ event: NostrEvent) -> Bool { Self.wireBytes(event) <= maxEventBytes }

    /// Throws `event_too_large`, naming `what` and the bound, unless `event` fits.
    public func check(_ event: NostrEvent, _ what: String) throws {
        let size = Self.wireBytes(event)
        guard size <= maxEventBytes else {
            throw MLSError(.eventTooLarge, "\(what) would be \(size) bytes; maxEventBytes is \(maxEventBytes)")
        }
    }

    // MARK: sizes computed before building

    /// Length of padded base64 of `n` bytes.
    static func base64Length(_ n: Int) -> Int { (n + 2) / 3 * 4 }

    /// NIP-44 payload bytes (before base64) for `n` plaintext bytes: version, nonce, length
    /// prefix, padded plaintext, MAC.
    static func nip44PayloadBytes(_ n: Int) -> Int { 1 + 32 + NIP44.prefixLength(n) + NIP44.paddedLength(n) + 32 }

    /// JSON bytes of a signed event with empty content, `kind` and `tags` (ten-digit created_at).
    static func signedOverhead(kind: Int, tags: [[String]]) -> Int {
        NostrEvent(id: String(repeating: "0", count: 64), pubkey: String(repeating: "0", count: 64), createdAt: 1_700_000_000,
                   kind: kind, tags: tags, content: "", sig: String(repeating: "0", count: 128)).jsonBytes.count
    }

    /// NIP-44 v2 as most implementations read it (nostr-sdk, hence MDK 0.8.0) takes plaintexts of
    /// at most 65,535 bytes; InviteKit's longer form (PROTOCOL §3) is not read there. Welcomes keep
    /// both the rumor and the seal within it.
    public static let standardNIP44MaxPlaintextBytes = 65_535

    /// JSON bytes of the NIP-59 seal (kind 13) of a rumor whose JSON is `rumorJSONBytes` long.
    public static func sealJSONBytes(rumorJSONBytes: Int) -> Int {
        signedOverhead(kind: GiftWrap.sealKind, tags: []) + base64Length(nip44PayloadBytes(rumorJSONBytes))
    }

    /// Wire bytes of the NIP-59 gift wrap of a rumor whose JSON is `rumorJSONBytes` long: the
    /// seal (kind 13) holds NIP-44 of the rumor, the wrap (kind 1059, one `p` tag) NIP-44 of the
    /// seal. Exact for ten-digit timestamps.
    public static func giftWrapBytes(rumorJSONBytes: Int) -> Int {
        let seal = sealJSONBytes(rumorJSONBytes: rumorJSONBytes)
        let wrap = signedOverhead(kind: GiftWrap.wrapKind, tags: [["p", String(repeating: "0", count: 64)]])
            + base64Length(nip44PayloadBytes(seal))
        return wrap + clientFrameBytes
    }

    /// The largest Welcome `MLSMessage` whose gift-wrapped kind-444 rumor fits, and whose seal
    /// standard NIP-44 readers can open, for a rumor whose JSON without content is
    /// `rumorOverheadBytes` (0 when nothing fits).
    public func maxWelcomeMessageBytes(rumorOverheadBytes: Int) -> Int {
        func fits(_ w: Int) -> Bool {
            let rumor = rumorOverheadBytes + Self.base64Length(w)
            return Self.giftWrapBytes(rumorJSONBytes: rumor) <= maxEventBytes
                && Self.sealJSONBytes(rumorJSONBytes: rumor) <= Self.standardNIP44MaxPlaintextBytes
        }
        var lo = 0, hi = maxEventBytes
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if fits(mid) { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The largest content, before base64, of a signed event of `kind` and `tags` that fits.
    public func maxBase64PayloadBytes(kind: Int, tags: [[String]]) -> Int {
        let room = maxEventBytes - Self.clientFrameBytes - Self.signedOverhead(kind: kind, tags: tags)
        return max(0, room / 4 * 3)
    }
}
