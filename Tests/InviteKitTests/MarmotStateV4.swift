import InviteKitCrypto
import InviteKitMLS

/// A group's state in the format before the seen log had its own place (`marmot_group` version 4,
/// PROTOCOL §5.10): the version-5 bytes with the log's ids and hashes put back before
/// `leave_requests`, as the previous writer placed them (oldest first).
enum MarmotStateV4 {
    static func downgrade(_ group: MarmotGroup<MLSGroupState>) throws -> [UInt8] {
        var v5 = group.serialized().exportBytes()
        defer { SecureBytes.wipe(&v5) }
        var r = TLSReader(v5)
        guard try r.readUInt8() == 5 else { throw MLSError(.unsupportedVersion, "not a version-5 state") }
        let engine = try r.readOpaque(), snapshots = try r.readOpaque()
        let rest = try r.readBytes(r.remaining)
        var w = TLSWriter(capacity: v5.count + 64 * group.seenLog.count)
        w.writeUInt8(4)
        w.writeOpaque(engine)
        w.writeOpaque(snapshots)
        let entries = group.seenLog.entries
        w.writeVector { v in for e in entries where e.kind == .eventID { v.writeOpaque(Array(Hex.encode(e.value).utf8)) } }
        w.writeVector { v in for e in entries where e.kind == .contentHash { v.writeOpaque(e.value) } }
        w.writeBytes(rest)
        return w.takeBytes()
    }
}
