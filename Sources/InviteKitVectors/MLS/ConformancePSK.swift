import InviteKitCrypto
import InviteKitMLS

/// `psk_secret` from external PSKs (RFC 9420 §8.4), for the conformance harness only: the Marmot
/// profile has no PSKs and the public API never takes one, but the mlswg passive-client
/// scenarios join with an external PSK and then exercise commit handling that Marmot does use.
enum ConformancePSK {
    /// `psk_secret_[n]` over `ids`, each looked up in `external` by its `psk_id`. Resumption PSKs
    /// need past epochs of another group and are refused as `unsupported_feature`.
    static func pskSecret(_ ids: [PreSharedKeyID], external: [[UInt8]: [UInt8]], suite: CipherSuite) throws -> SecureBytes {
        var secret = SecureBytes(zeroedCount: suite.hashLength)
        for (i, id) in ids.enumerated() {
            guard case .external(let pskID) = id.kind else {
                throw MLSError(.unsupportedFeature, "resumption PSK (outside the Marmot profile)")
            }
            guard let psk = external[pskID] else { throw MLSError(.unsupportedFeature, "external PSK (outside the Marmot profile)") }
            var label = TLSWriter(capacity: 64)
            id.encode(to: &label)
            label.writeUInt16(UInt16(i))
            label.writeUInt16(UInt16(ids.count))
            let extracted = HKDF.extract(salt: [UInt8](repeating: 0, count: suite.hashLength), ikm: psk)
            let input = MLSCrypto.expandWithLabel(secret: extracted, label: "derived psk", context: label.bytes, length: suite.hashLength)
            secret = HKDF.extract(salt: input, ikm: secret)
        }
        return secret
    }
}
