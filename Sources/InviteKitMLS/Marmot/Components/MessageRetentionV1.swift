/// `marmot.group.message-retention.v1`, component `0x8005` (`app-components/message-retention-v1.md`;
/// MDK v0.9.14 `crates/cgka-engine/src/app_components.rs:1771`): disappearing messages.
///
///     struct { uint64 disappearing_message_secs; } MarmotMessageRetentionV1;   // 0 = off
///
/// When non-zero, application kind-445 events carry a NIP-40 `expiration` of the inner event's
/// `created_at` plus these seconds.
public struct MessageRetentionV1: Hashable, Sendable {
    public let seconds: UInt64

    public init(seconds: UInt64) { self.seconds = seconds }

    public var encoded: [UInt8] { ComponentCodec.encode { $0.writeUInt64(seconds) } }

    /// When a message written at `createdAt` under `seconds` of retention expires (PROTOCOL
    /// §5.15; `message-retention-v1.md`, exact checked addition): `nil` when retention is off
    /// (`nil` or 0), `createdAt` is negative, or the sum does not fit. The one expiry rule: the
    /// kind-445 `expiration` tag and the node's removal of stored messages both ask it.
    public static func expiry(createdAt: Int64, seconds: UInt64?) -> Int64? {
        guard let seconds, seconds > 0, createdAt >= 0 else { return nil }
        let (sum, overflow) = UInt64(createdAt).addingReportingOverflow(seconds)
        guard !overflow, sum <= UInt64(Int64.max) else { return nil }
        return Int64(sum)
    }

    /// The NIP-40 tag name; the engine removes it from inner events it sends, since retention is
    /// group state, not a sender's choice (`transports/nostr.md`, "Message retention").
    public static let expirationTag = "expiration"

    public init(decoding bytes: [UInt8]) throws {
        seconds = try ComponentCodec.decode(bytes, "message retention") { try $0.readUInt64() }
    }
}
