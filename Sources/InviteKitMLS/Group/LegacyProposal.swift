/// A change a commit makes (group.md §Proposal).
///
/// `uint8 proposal_type; select { 1 add: KeyPackage key_package; uint8 is_admin;
/// 2 remove: opaque identity<V>; 3 self_remove: opaque identity<V>;
/// 4 update: opaque encryption_key<V>; opaque signature_key<V>; }`
public enum LegacyProposal: Hashable, Sendable, TLSCodable {
    /// Add the KeyPackage's owner.
    case add(KeyPackage, isAdmin: Bool)
    /// An admin removes a member.
    case remove(identity: [UInt8])
    /// An admin commits a member's own leave request (SelfRemove).
    case selfRemove(identity: [UInt8])
    /// The committer rotates its own leaf keys.
    case update(encryptionKey: [UInt8], signatureKey: [UInt8])

    public init(from reader: inout TLSReader) throws {
        switch try reader.readUInt8() {
        case 1:
            let kp = try KeyPackage(from: &reader)
            let a = try reader.readUInt8()
            guard a <= 1 else { throw MLSError(.invalidValue, "is_admin \(a)") }
            self = .add(kp, isAdmin: a == 1)
        case 2: self = .remove(identity: try reader.readOpaque())
        case 3: self = .selfRemove(identity: try reader.readOpaque())
        case 4: self = .update(encryptionKey: try reader.readOpaque(), signatureKey: try reader.readOpaque())
        case let t: throw MLSError(.invalidValue, "proposal_type \(t)")
        }
    }

    public func encode(to writer: inout TLSWriter) {
        switch self {
        case .add(let kp, let admin):
            writer.writeUInt8(1); kp.encode(to: &writer); writer.writeUInt8(admin ? 1 : 0)
        case .remove(let id):
            writer.writeUInt8(2); writer.writeOpaque(id)
        case .selfRemove(let id):
            writer.writeUInt8(3); writer.writeOpaque(id)
        case .update(let e, let s):
            writer.writeUInt8(4); writer.writeOpaque(e); writer.writeOpaque(s)
        }
    }

    /// `true` for proposals only admins may commit.
    var needsAdmin: Bool {
        if case .update = self { return false }
        return true
    }
}
