/// `Proposal` (RFC 9420 §12.1, plus SelfRemove from draft-ietf-mls-extensions §6.3).
///
/// Every RFC 9420 proposal type parses and re-serializes; the engine acts on Add, Update,
/// Remove, GroupContextExtensions, SelfRemove and AppDataUpdate (draft-ietf-mls-extensions-10
/// §4.6.2) and refuses the rest (the Marmot profile has no
/// PSKs, ReInit or external joins).
package enum Proposal: Hashable, Sendable, TLSCodable {
    /// `ProposalType` values (RFC 9420 §17.4; SelfRemove: draft-ietf-mls-extensions §7.3.3).
    package enum ProposalType: UInt16, Sendable, CaseIterable {
        case add = 1, update = 2, remove = 3, psk = 4, reinit = 5, externalInit = 6, groupContextExtensions = 7
        case appDataUpdate = 0x0008
        case selfRemove = 0x000a
    }

    /// `Add { KeyPackage key_package; }`.
    case add(KeyPackage)
    /// `Update { LeafNode leaf_node; }`.
    case update(LeafNode)
    /// `Remove { uint32 removed; }`: a leaf index.
    case remove(UInt32)
    /// `PreSharedKey { PreSharedKeyID psk; }`.
    case preSharedKey(PreSharedKeyID)
    /// `ReInit`.
    case reInit(ReInit)
    /// `ExternalInit { opaque kem_output<V>; }`.
    case externalInit(kemOutput: [UInt8])
    /// `GroupContextExtensions { Extension extensions<V>; }`.
    case groupContextExtensions([MLSExtension])
    /// `struct {} SelfRemove;`.
    case selfRemove
    /// `AppDataUpdate` (draft-ietf-mls-extensions-10 §4.6.2).
    case appDataUpdate(AppDataUpdate)

    package var proposalType: ProposalType {
        switch self {
        case .add: return .add
        case .update: return .update
        case .remove: return .remove
        case .preSharedKey: return .psk
        case .reInit: return .reinit
        case .externalInit: return .externalInit
        case .groupContextExtensions: return .groupContextExtensions
        case .selfRemove: return .selfRemove
        case .appDataUpdate: return .appDataUpdate
        }
    }

    package init(from reader: inout TLSReader) throws {
        let raw = try reader.readUInt16()
        guard let type = ProposalType(rawValue: raw) else { throw MLSError(.invalidValue, "proposal type \(raw)") }
        switch type {
        case .add: self = .add(try KeyPackage(from: &reader))
        case .update: self = .update(try LeafNode(from: &reader))
        case .remove: self = .remove(try reader.readUInt32())
        case .psk: self = .preSharedKey(try PreSharedKeyID(from: &reader))
        case .reinit: self = .reInit(try ReInit(from: &reader))
        case .externalInit: self = .externalInit(kemOutput: try reader.readOpaque())
        case .groupContextExtensions: self = .groupContextExtensions(try reader.readVector { try MLSExtension(from: &$0) })
        case .selfRemove: self = .selfRemove
        case .appDataUpdate: self = .appDataUpdate(try AppDataUpdate(from: &reader))
        }
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeUInt16(proposalType.rawValue)
        switch self {
        case .add(let kp): kp.encode(to: &writer)
        case .update(let leaf): leaf.encode(to: &writer)
        case .remove(let index): writer.writeUInt32(index)
        case .preSharedKey(let id): id.encode(to: &writer)
        case .reInit(let r): r.encode(to: &writer)
        case .externalInit(let kem): writer.writeOpaque(kem)
        case .groupContextExtensions(let exts): writer.writeVector(exts)
        case .selfRemove: break
        case .appDataUpdate(let u): u.encode(to: &writer)
        }
    }

    /// Parses the body of a proposal whose type is already known (the messages vector gives
    /// each proposal without its type field).
    package static func parseBody(_ type: ProposalType, _ bytes: [UInt8]) throws -> Proposal {
        var w = TLSWriter(capacity: bytes.count + 2)
        w.writeUInt16(type.rawValue)
        w.writeBytes(bytes)
        return try Proposal(tlsSerialized: w.bytes)
    }

    /// The serialization without the leading type.
    package var bodyBytes: [UInt8] { Array(tlsSerialized.dropFirst(2)) }
}
