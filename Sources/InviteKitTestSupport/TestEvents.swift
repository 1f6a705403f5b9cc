import InviteKitCrypto
import InviteKitNostr

/// Small signed-event builders shared by the relay and flow tests.
package enum TestEvents {
    package static func note(_ key: Secp256k1.PrivateKey, _ content: String, kind: Int = 1, tags: [[String]] = [],
                            createdAt: Int64? = nil) -> NostrEvent {
        try! EventTemplate(kind: kind, content: content, tags: tags, createdAt: createdAt).signed(by: key)
    }

    /// A copy of `event` whose signature no longer verifies (one hex digit changed).
    package static func badSignature(_ event: NostrEvent) -> NostrEvent {
        var e = event
        var sig = Array(e.sig!)
        sig[10] = sig[10] == "0" ? "1" : "0"
        e.sig = String(sig)
        return e
    }

    /// An outsider's kind-445 event for the group with `h` tag `nostrGroupID`: well formed as the
    /// current profile asks (one `h` tag; with `mipForm`, MIP-03's encoding tag too), padded base64
    /// of `bytes` random bytes, so past the size of a nonce and a tag, signed by a fresh key, and
    /// opened by no key.
    package static func junkGroupEvent(nostrGroupID: String, bytes: Int, rng: RandomSource = SystemRandom(), createdAt: Int64? = nil,
                                      mipForm: Bool = false) -> NostrEvent {
        let tags = mipForm ? [["h", nostrGroupID], ["encoding", "base64"]] : [["h", nostrGroupID]]
        return try! EventTemplate(kind: 445, content: Base64.encode(rng.bytes(bytes)), tags: tags,
                                  createdAt: createdAt).signed(by: Secp256k1.PrivateKey(using: rng), using: rng)
    }

    package static func uniqueTag() -> String { Hex.encode(SystemRandom().bytes(8)) }
}
