import InviteKitCrypto

/// `RatchetTreeOption` of draft-mahy-mls-ratchet-tree-options-03 §3: how a GroupInfo conveys the
/// ratchet tree. InviteKit sends it as a GroupInfo extension (type ``extensionType``) only with
/// `outOfBand`, when the tree travels in chunk events (PROTOCOL §5.11); an inline tree stays the
/// RFC 9420 `ratchet_tree` extension MDK expects.
///
/// ```
/// enum { reserved(0), full(1), httpsUri(2), outOfBand(3), distributionService(4), (255) }
/// struct { RatchetTreeRepresentation representation; select (representation) {
///   case full: Node ratchet_tree<V>;
///   case httpsUri: opaque ratchet_tree_url<V>; opaque tree_signature<V>;
///   case outOfBand: opaque tree_signature<V>;
///   case distributionService: struct {}; }; } RatchetTreeOption;
/// ```
package enum RatchetTreeOption: Hashable, Sendable, TLSCodable {
    /// The draft names no extension type; this one is from the private-use range (RFC 9420 §17.3),
    /// next to Marmot's 0xf2ee (PROTOCOL §5.11).
    package static let extensionType: UInt16 = 0xf2ef
    /// The `SignWithLabel` label of `tree_signature` (RFC 9420 §5.1.2).
    package static let signatureLabel = "RatchetTreeSignature"

    /// The serialized `ratchet_tree` (a `Node` vector) verbatim.
    case full(treeBytes: [UInt8])
    case httpsUri(url: [UInt8], treeSignature: [UInt8])
    case outOfBand(treeSignature: [UInt8])
    case distributionService

    package init(from reader: inout TLSReader) throws {
        switch try reader.readUInt8() {
        case 1:
            // Node ratchet_tree<V>: keep the vector's bytes, with their length prefix.
            let body = try reader.readOpaque()
            var w = TLSWriter(capacity: body.count + 4)
            w.writeOpaque(body)
            self = .full(treeBytes: w.bytes)
        case 2: self = .httpsUri(url: try reader.readOpaque(), treeSignature: try reader.readOpaque())
        case 3: self = .outOfBand(treeSignature: try reader.readOpaque())
        case 4: self = .distributionService
        case let r: throw MLSError(.invalidValue, "RatchetTreeRepresentation \(r)")
        }
    }

    package func encode(to writer: inout TLSWriter) {
        switch self {
        case let .full(treeBytes):
            writer.writeUInt8(1)
            writer.writeBytes(treeBytes)
        case let .httpsUri(url, sig):
            writer.writeUInt8(2)
            writer.writeOpaque(url)
            writer.writeOpaque(sig)
        case let .outOfBand(sig):
            writer.writeUInt8(3)
            writer.writeOpaque(sig)
        case .distributionService:
            writer.writeUInt8(4)
        }
    }

    /// As a GroupInfo extension.
    package var asExtension: MLSExtension { MLSExtension(type: Self.extensionType, data: tlsSerialized) }

    /// What `tree_signature` signs (the draft leaves it open; PROTOCOL §5.11):
    /// `struct { opaque group_id<V>; uint64 epoch; opaque tree_hash<V>; } RatchetTreeTBS;`
    package static func treeTBS(groupID: [UInt8], epoch: UInt64, treeHash: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: 96)
        w.writeOpaque(groupID)
        w.writeUInt64(epoch)
        w.writeOpaque(treeHash)
        return w.bytes
    }

    /// `.outOfBand` signed by the GroupInfo's signer over the new epoch's tree hash.
    package static func outOfBand(signer: Ed25519.PrivateKey, groupID: [UInt8], epoch: UInt64, treeHash: [UInt8]) -> RatchetTreeOption {
        .outOfBand(treeSignature: MLSCrypto.signWithLabel(signer, label: signatureLabel,
                                                          content: treeTBS(groupID: groupID, epoch: epoch, treeHash: treeHash)))
    }
}
