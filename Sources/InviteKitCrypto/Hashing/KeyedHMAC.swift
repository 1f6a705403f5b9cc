internal import CSodium

/// A long-lived keyed HMAC whose internal hash states (equivalent to the key) are wiped with
/// `sodium_memzero` when it is released.
public final class KeyedHMAC: @unchecked Sendable {
    // Safe: `mac` is set once in `init` (the setter is private and never called after) and only read.
    public private(set) var mac: HMACSHA256

    public init(_ mac: HMACSHA256) { self.mac = mac }

    deinit {
        withUnsafeMutableBytes(of: &mac) { sodium_memzero($0.baseAddress!, $0.count) }
    }
}

extension KeyedHMAC: RedactedDescription {}
