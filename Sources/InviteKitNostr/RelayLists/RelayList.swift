/// The relay lists an account publishes (PROTOCOL §5.12.6; `shared/marmot/v2/transports/nostr.md`,
/// "Account inbox relays" and "KeyPackage publication"; MDK v0.9.14
/// `crates/transport-nostr-adapter/src/relay_list.rs`):
/// - kind 10002 (NIP-65): `["r", url]` or `["r", url, "read"|"write"]`. KeyPackages go to, and
///   are fetched from, the relays whose marker is `write` or absent.
/// - kind 10050 (NIP-17): `["relay", url]`, the inbox where gift wraps (Welcomes) are sent.
/// - kind 10051 (MIP-00, removed in MDK 0.9): `["relay", url]`, a KeyPackage relay list, read for
///   older peers only.
///
/// Reading is bounded: at most ``maxRelays`` URLs are taken from a list, each a `ws://` or `wss://`
/// URL of at most ``maxURLBytes`` bytes; anything else in the list is skipped.
public enum RelayList {
    public static let outboxKind = 10002
    public static let inboxKind = 10050
    public static let keyPackageKind = 10051
    /// At most this many relays are read from one list.
    public static let maxRelays = 16
    /// A relay URL longer than this is skipped.
    public static let maxURLBytes = 512

    /// A kind-10002 template: each relay with no marker (read and write).
    public static func outbox(_ relays: [String], createdAt: Int64? = nil) -> EventTemplate {
        EventTemplate(kind: outboxKind, content: "", tags: unique(relays).map { ["r", $0] }, createdAt: createdAt)
    }

    /// A kind-10050 template.
    public static func inbox(_ relays: [String], createdAt: Int64? = nil) -> EventTemplate {
        EventTemplate(kind: inboxKind, content: "", tags: unique(relays).map { ["relay", $0] }, createdAt: createdAt)
    }

    /// The relays a KeyPackage of `event`'s author is published to: the write relays of a kind
    /// 10002 (marker `write` or none), or every relay of a kind 10051. Empty for other kinds.
    public static func keyPackageRelays(of event: NostrEvent) -> [String] {
        switch event.kind {
        case outboxKind:
            return read(event.tags.filter { $0.count >= 2 && $0[0] == "r" && ($0.count == 2 || $0[2] == "write") }.map { $0[1] })
        case keyPackageKind:
            return read(event.tags.filter { $0.count >= 2 && $0[0] == "relay" }.map { $0[1] })
        default:
            return []
        }
    }

    /// The inbox relays of a kind 10050; empty for other kinds.
    public static func inboxRelays(of event: NostrEvent) -> [String] {
        guard event.kind == inboxKind else { return [] }
        return read(event.tags.filter { $0.count >= 2 && $0[0] == "relay" }.map { $0[1] })
    }

    /// Of several lists of one kind by one author, the newest (`created_at`, then the smallest id):
    /// kinds 10002, 10050 and 10051 are replaceable (NIP-01).
    public static func newest(_ events: [NostrEvent], kind: Int, author: String) -> NostrEvent? {
        events.filter { $0.kind == kind && $0.pubkey == author }.min {
            $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id < $1.id
        }
    }

    static func read(_ urls: [String]) -> [String] {
        Array(unique(urls.filter { isRelayURL($0, maxBytes: maxURLBytes) }).prefix(maxRelays))
    }

    static func unique(_ urls: [String]) -> [String] {
        var seen = Set<String>()
        return urls.filter { seen.insert($0).inserted }
    }

    /// A `ws://` or `wss://` URL with a host, no whitespace or control characters, at most
    /// `maxBytes` bytes (2,048: what MDK's relay parser takes). The one relay-URL rule; the
    /// Marmot layer asks it too.
    public static func isRelayURL(_ url: String, maxBytes: Int = 2048) -> Bool {
        let bytes = Array(url.utf8)
        guard bytes.count <= maxBytes, !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7f }) else { return false }
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("wss://") { rest = lower.dropFirst(6) } else if lower.hasPrefix("ws://") { rest = lower.dropFirst(5) } else { return false }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.hasPrefix(":") && !host.hasPrefix("@")
    }
}
