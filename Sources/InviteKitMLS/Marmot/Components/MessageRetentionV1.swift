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

    public init(decoding bytes: [UInt8]) throws {
        seconds = try ComponentCodec.decode(bytes, "message retention") { try $0.readUInt64() }
    }
}
