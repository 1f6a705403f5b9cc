import InviteKitCrypto
import InviteKitNostr

/// Small signed-event builders shared by the relay and flow tests.
public enum TestEvents {
    public static func note(_ key: Secp256k1.PrivateKey, _ content: String, kind: Int = 1, tags: [[String]] = [],
                            createdAt: Int64? = nil) -> NostrEvent {
        try! EventTemplate(kind: kind, content: content, tags: tags, createdAt: createdAt).signed(by: key)
    }

    /// A copy of `event` whose signature no longer verifies (one hex digit changed).
    public static func badSignature(_ event: NostrEvent) -> NostrEvent {
        var e = event
        var sig = Array(e.sig!)
        sig[10] = sig[10] == "0" ? "1" : "0"
        e.sig = String(sig)
        return e
    }

    public static func uniqueTag() -> String { Hex.encode(SystemRandom().bytes(8)) }
}
