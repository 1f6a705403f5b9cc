/// `Capabilities` (RFC 9420 §7.2).
package struct Capabilities: Hashable, Sendable, TLSCodable {
    package var versions: [UInt16]
    package var cipherSuites: [UInt16]
    package var extensions: [UInt16]
    package var proposals: [UInt16]
    package var credentials: [UInt16]

    package init(versions: [UInt16], cipherSuites: [UInt16], extensions: [UInt16], proposals: [UInt16], credentials: [UInt16]) {
        self.versions = versions
        self.cipherSuites = cipherSuites
        self.extensions = extensions
        self.proposals = proposals
        self.credentials = credentials
    }

    /// What Marmot KeyPackages advertise: MLS 1.0, suite 0x0001, extensions 0xf2ee (Marmot group
    /// data) and 0x000a (last_resort), proposal 0x000a (SelfRemove), basic credentials
    /// (Marmot MIP-00; PROTOCOL.md §4.4, the `mls_extensions` / `mls_proposals` tags).
    package static let marmot = Capabilities(
        versions: [ProtocolVersion.mls10.rawValue],
        cipherSuites: [CipherSuite.x25519Aes128GcmSha256Ed25519.rawValue],
        extensions: [MLSExtension.marmotGroupDataType, MLSExtension.lastResortType],
        proposals: [MLSExtension.selfRemoveProposalType],
        credentials: [Credential.basicType])

    /// What a current-profile leaf advertises (MDK v0.9.14 `capabilities.rs:27`; PROTOCOL §5.12.3):
    /// MLS 1.0, suite 0x0001, extensions `0x0006` and `0xf2d1`, proposals `0x0008` and `0x000a`,
    /// basic credentials.
    package static let marmotCurrent = Capabilities(
        versions: [ProtocolVersion.mls10.rawValue],
        cipherSuites: [CipherSuite.x25519Aes128GcmSha256Ed25519.rawValue],
        extensions: MarmotProfile.currentSupportedExtensions,
        proposals: MarmotProfile.currentSupportedProposals,
        credentials: [Credential.basicType])

    package init(from reader: inout TLSReader) throws {
        versions = try reader.readVector { try $0.readUInt16() }
        cipherSuites = try reader.readVector { try $0.readUInt16() }
        extensions = try reader.readVector { try $0.readUInt16() }
        proposals = try reader.readVector { try $0.readUInt16() }
        credentials = try reader.readVector { try $0.readUInt16() }
    }

    package func encode(to writer: inout TLSWriter) {
        for list in [versions, cipherSuites, extensions, proposals, credentials] {
            writer.writeVector { w in for v in list { w.writeUInt16(v) } }
        }
    }
}
