/// `marmot.group.agent-text-stream.quic.v1`, component `0x8006` (MDK v0.9.14
/// `crates/traits/src/agent_text_stream.rs:141`): InviteKit does not stream agent text, but
/// carries and checks the policy MDK's app puts in every group it creates.
///
///     uint8 required_member_roles; uint8 allowed_member_roles; uint32 max_plaintext_frame_len;
///     uint32 replay_ttl_secs; uint16 padding_bucket_bytes;                       // 12 bytes
///
/// Role bits `0x01` receive, `0x02` send, `0x04` fanout; a member holding role bit `b` lists
/// extension `0xf2d1`/`0xf2d2`/`0xf2d4` in its capabilities.
public struct AgentTextStreamPolicyV1: Hashable, Sendable {
    /// The `receive` role's capability marker; InviteKit leaves list it, which is all the role asks.
    public static let receiveRoleExtension: UInt16 = 0xf2d1
    /// marmot-app's default (`user_to_agent_default`).
    public static let appDefault = AgentTextStreamPolicyV1(required: 0x01, allowed: 0x03, maxFrame: 4096, replayTTL: 0, padding: 0)

    public let required: UInt8
    public let allowed: UInt8
    public let maxFrame: UInt32
    public let replayTTL: UInt32
    public let padding: UInt16

    init(required: UInt8, allowed: UInt8, maxFrame: UInt32, replayTTL: UInt32, padding: UInt16) {
        self.required = required
        self.allowed = allowed
        self.maxFrame = maxFrame
        self.replayTTL = replayTTL
        self.padding = padding
    }

    public var encoded: [UInt8] {
        ComponentCodec.encode { w in
            w.writeUInt8(required)
            w.writeUInt8(allowed)
            w.writeUInt32(maxFrame)
            w.writeUInt32(replayTTL)
            w.writeUInt16(padding)
        }
    }

    /// The role capability markers a member needs: one per required role bit.
    public var requiredRoleExtensions: [UInt16] {
        [(UInt8(0x01), UInt16(0xf2d1)), (0x02, 0xf2d2), (0x04, 0xf2d4)].filter { required & $0.0 != 0 }.map(\.1)
    }

    public init(decoding bytes: [UInt8]) throws {
        guard bytes.count == 12 else { throw MLSError(.invalidComponent, "agent text stream policy must be 12 bytes") }
        self = try ComponentCodec.decode(bytes, "agent text stream policy") { r in
            AgentTextStreamPolicyV1(required: try r.readUInt8(), allowed: try r.readUInt8(), maxFrame: try r.readUInt32(),
                                    replayTTL: try r.readUInt32(), padding: try r.readUInt16())
        }
        guard required != 0, required & ~0x07 == 0, allowed & ~0x07 == 0, required & ~allowed == 0,
              (1...65519).contains(maxFrame), replayTTL <= 300, padding <= 4096 else {
            throw MLSError(.invalidComponent, "agent text stream policy out of range")
        }
    }
}
