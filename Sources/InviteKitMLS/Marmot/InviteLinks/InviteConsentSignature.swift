import InviteKitCrypto

/// The requester device's consent signature over invite records: draft-ietf-mls-extensions-10
/// §4.3 SafeSignWithLabel with Ed25519, component `0x800e`
/// (`shared/marmot/v2/foundation/invite-link-records.md` "Encoding and scope", "Withdrawal";
/// PROTOCOL §5.14.5):
///
///     struct { opaque base_label<V> = "MLS Component"; uint16 component_id = 0x800e;
///              opaque label<V>; } ComponentOperationLabel;
///     struct { opaque label<V> = "MLS 1.0 " || ComponentOperationLabel;
///              opaque content<V>; } SignContent;          // RFC 9420 §5.1.2
///
/// The `<V>` prefixes are RFC 9420 varints, whose shortest forms equal the Marmot profile here.
public enum InviteConsentSignature {
    /// The operation labels.
    public enum Operation: String, Sendable {
        case request
        case withdrawal
    }

    static let baseLabel = Array("MLS Component".utf8)
    static let rfcPrefix = Array("MLS 1.0 ".utf8)

    /// The exact SignContent bytes Ed25519 signs.
    public static func signContent(_ operation: Operation, content: [UInt8]) -> [UInt8] {
        let componentLabel = InviteLinkCodec.encode { w in
            w.writeOpaque(baseLabel); w.writeUInt16(ComponentID.inviteLinks); w.writeOpaque(Array(operation.rawValue.utf8))
        }
        return InviteLinkCodec.encode { w in w.writeOpaque(rfcPrefix + componentLabel); w.writeOpaque(content) }
    }

    /// SafeSignWithLabel(`key`, `operation`, `content`).
    public static func sign(_ operation: Operation, content: [UInt8], key: Ed25519.PrivateKey) -> [UInt8] {
        key.signature(for: signContent(operation, content: content))
    }

    /// SafeVerifyWithLabel; `invalid_signature` when it does not verify under `consentKey`.
    public static func verify(_ operation: Operation, content: [UInt8], signature: [UInt8], consentKey: [UInt8]) throws {
        guard Ed25519.isValidSignature(signature, for: signContent(operation, content: content), publicKey: consentKey) else {
            throw MLSError(.invalidSignature, "the invite \(operation.rawValue) consent signature does not verify")
        }
    }
}
