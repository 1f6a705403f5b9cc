import Foundation

/// Seconds since 1970, as Nostr timestamps are.
public enum UnixTime {
    public static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }
}
