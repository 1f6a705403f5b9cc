/// `Credential` (RFC 9420 §5.3). Basic credentials are interpreted; X.509 chains are kept as
/// their raw certificate list. Other credential types cannot be parsed (their length is unknown).
package struct Credential: Hashable, Sendable, TLSCodable {
    /// `CredentialType` values.
    package static let basicType: UInt16 = 0x0001
    package static let x509Type: UInt16 = 0x0002

    /// The credential type.
    package let credentialType: UInt16
    /// For `basic`: the identity. For `x509`: the certificates, each `opaque cert_data<V>`.
    package let identity: [UInt8]
    package let certificates: [[UInt8]]

    /// A BasicCredential. Marmot puts the raw 32-byte Nostr x-only public key here.
    package static func basic(identity: [UInt8]) -> Credential {
        Credential(credentialType: basicType, identity: identity, certificates: [])
    }

    init(credentialType: UInt16, identity: [UInt8], certificates: [[UInt8]]) {
        self.credentialType = credentialType
        self.identity = identity
        self.certificates = certificates
    }

    package var isBasic: Bool { credentialType == Credential.basicType }

    package init(from reader: inout TLSReader) throws {
        credentialType = try reader.readUInt16()
        switch credentialType {
        case Credential.basicType:
            identity = try reader.readOpaque()
            certificates = []
        case Credential.x509Type:
            identity = []
            certificates = try reader.readVector { try $0.readOpaque() }
        default:
            throw MLSError(.invalidValue, "unknown credential type \(credentialType)")
        }
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeUInt16(credentialType)
        if credentialType == Credential.x509Type {
            writer.writeVector { w in for c in certificates { w.writeOpaque(c) } }
        } else {
            writer.writeOpaque(identity)
        }
    }
}
