/// `marmot.transport.nostr.routing.v1`, component `0x8004` (`app-components/nostr-routing-v1.md`;
/// MDK v0.9.14 `crates/traits/src/app_components/routing.rs:39`): where the group's kind-445
/// events go.
///
///     struct { opaque url<1..512>; } MarmotNostrRelayV1;
///     struct { opaque nostr_group_id[32]; MarmotNostrRelayV1 relays<V>; } MarmotNostrRoutingV1;
///
/// 1–16 relays, sorted by bytes, unique, each a `ws://` or `wss://` URL with a host and no
/// userinfo or fragment. The update is the whole new state and may rotate the group id.
public struct NostrRoutingV1: Hashable, Sendable {
    public static let maxRelays = 16
    public static let maxURLBytes = 512

    public let nostrGroupID: [UInt8]
    /// Ascending by bytes, unique.
    public let relays: [String]

    /// Sorts and deduplicates `relays`; refuses what the reader would.
    public init(nostrGroupID: [UInt8], relays: [String]) throws {
        guard nostrGroupID.count == 32 else { throw MLSError(.invalidComponent, "nostr_group_id must be 32 bytes") }
        self.nostrGroupID = nostrGroupID
        self.relays = Set(relays).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        try Self.check(self.relays)
    }

    static func check(_ relays: [String]) throws {
        guard (1...maxRelays).contains(relays.count) else { throw MLSError(.invalidComponent, "routing has \(relays.count) relays, not 1...\(maxRelays)") }
        for relay in relays {
            guard (1...maxURLBytes).contains(relay.utf8.count) else { throw MLSError(.invalidComponent, "relay URL is not 1...\(maxURLBytes) bytes") }
            guard isRoutingURL(relay) else { throw MLSError(.invalidComponent, "relay is not a ws/wss URL without userinfo or fragment") }
        }
    }

    /// A relay URL the routing component may hold.
    public static func isRoutingURL(_ url: String) -> Bool {
        guard KeyPackageEvent.isRelayURL(url), !url.contains("#") else { return false }
        let afterScheme = url.drop { $0 != "/" }.dropFirst(2)
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" }
        return !authority.contains("@")
    }

    public var encoded: [UInt8] {
        ComponentCodec.encode { w in
            w.writeBytes(nostrGroupID)
            w.writeVector { v in for r in relays { v.writeOpaque(Array(r.utf8)) } }
        }
    }

    /// Reads strictly (the fixtures `nostr-routing-v1-*.v1.json` of MDK v0.9.14).
    public init(decoding bytes: [UInt8]) throws {
        let (id, urls): ([UInt8], [String]) = try ComponentCodec.decode(bytes, "nostr routing") { r in
            let id = try r.readBytes(32)
            let urls = try r.readVector { v -> String in
                let raw = try v.readOpaque()
                guard let s = String(validating: raw, as: UTF8.self) else { throw MLSError(.invalidComponent, "relay URL is not UTF-8") }
                return s
            }
            return (id, urls)
        }
        for (a, b) in zip(urls, urls.dropFirst()) where !Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) {
            throw MLSError(.invalidComponent, a == b ? "duplicate_relay: routing repeats a relay" : "routing relays are not sorted")
        }
        try Self.check(urls)
        nostrGroupID = id
        relays = urls
    }
}
