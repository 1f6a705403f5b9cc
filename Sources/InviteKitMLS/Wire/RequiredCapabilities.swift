/// The `required_capabilities` extension (RFC 9420 §11.1, type 0x0003).
package struct RequiredCapabilities: Hashable, Sendable, TLSCodable {
    /// The extension type.
    package static let extensionType: UInt16 = 0x0003

    package var extensionTypes: [UInt16]
    package var proposalTypes: [UInt16]
    package var credentialTypes: [UInt16]

    package init(extensionTypes: [UInt16], proposalTypes: [UInt16], credentialTypes: [UInt16]) {
        self.extensionTypes = extensionTypes
        self.proposalTypes = proposalTypes
        self.credentialTypes = credentialTypes
    }

    package init(from reader: inout TLSReader) throws {
        extensionTypes = try reader.readVector { try $0.readUInt16() }
        proposalTypes = try reader.readVector { try $0.readUInt16() }
        credentialTypes = try reader.readVector { try $0.readUInt16() }
    }

    package func encode(to writer: inout TLSWriter) {
        for list in [extensionTypes, proposalTypes, credentialTypes] {
            writer.writeVector { w in for v in list { w.writeUInt16(v) } }
        }
    }

    /// As a GroupContext extension.
    package var asExtension: MLSExtension { MLSExtension(type: Self.extensionType, data: tlsSerialized) }

    /// `true` when `capabilities` lists every required type (RFC 9420 §11.1). Default
    /// extension and proposal types (below 0x000a per RFC 9420 §7.2) need not be listed.
    package func isSatisfied(by capabilities: Capabilities) -> Bool {
        extensionTypes.allSatisfy { $0 <= 0x0005 || capabilities.extensions.contains($0) }
            && proposalTypes.allSatisfy { $0 <= 0x0007 || capabilities.proposals.contains($0) }
            && credentialTypes.allSatisfy { capabilities.credentials.contains($0) }
    }
}
