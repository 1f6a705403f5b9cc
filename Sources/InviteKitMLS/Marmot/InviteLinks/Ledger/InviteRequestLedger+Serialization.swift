import InviteKitCrypto

extension InviteRequestLedger {
    /// Version 1 of the ledger's stored form, sealed because requests hold bearers (PROTOCOL
    /// §5.14.10, "Stored form"): retired link ids, early withdrawals, then each record in the
    /// order of its encoded context.
    static let envelope = VersionedEnvelope("invite request ledger", version: 1)

    /// The ledger as zeroizing bytes; the same ledger always gives the same bytes.
    public func serialized() -> SecureBytes {
        Self.envelope.seal(capacity: 1024) { w in
            w.writeVector { v in for id in retiredLinks.sorted(by: { $0.lexicographicallyPrecedes($1) }) { v.writeOpaque(id) } }
            w.writeVector { v in for e in earlyWithdrawals { v.writeOpaque(e.encoded) } }
            w.writeVector { v in
                for record in records.values.sorted(by: { $0.context.encoded.lexicographicallyPrecedes($1.context.encoded) }) {
                    Self.write(record, to: &v)
                }
            }
        }
    }

    /// Reads ``serialized()``; every request and withdrawal is decoded and checked as on receipt.
    public init(serialized data: SecureBytes) throws {
        self.init()
        try Self.envelope.open(data) { _, r in
            retiredLinks = Set(try r.readVector { try InviteLinkCodec.readOpaque(&$0, 32...32, .invalidValue, "retired link id") })
            earlyWithdrawals = try r.readVector { try InviteWithdrawalV1(decoding: try $0.readOpaque()) }
            for record in try r.readVector(Self.readRecord) {
                guard records.updateValue(record, forKey: record.context) == nil else {
                    throw MLSError(.invalidValue, "invite request ledger repeats a context")
                }
            }
        }
    }

    private static func write(_ record: InviteRequestRecord, to w: inout TLSWriter) {
        w.writeOpaque(record.context.encoded)
        w.writeVector { v in for r in record.chain { v.writeOpaque(r.encoded) } }
        w.writeVector { v in for r in record.waiting { v.writeOpaque(r.encoded) } }
        w.writeUInt8((record.conflicting ? 1 : 0) | (record.timingUnverified ? 2 : 0) | (record.revoked ? 4 : 0))
        w.writeOpaque(record.withdrawal?.encoded ?? [])
        w.writeVector { v in for d in record.declines { v.writeOpaque(d.admin); v.writeOpaque(d.requestHash) } }
        if let z = record.realization {
            w.writeUInt8(1); w.writeBytes(z.requestHash); w.writeBytes(z.commitHash); w.writeBytes(z.welcomeHash)
        } else {
            w.writeUInt8(0)
        }
    }

    private static func readRecord(_ r: inout TLSReader) throws -> InviteRequestRecord {
        let context = try InviteRequestContextV1(decoding: try r.readOpaque())
        let chain = try r.readVector { try InviteRequestV1(decoding: try $0.readOpaque()) }
        let waiting = try r.readVector { try InviteRequestV1(decoding: try $0.readOpaque()) }
        let flags = try r.readUInt8()
        guard flags & ~7 == 0 else { throw MLSError(.invalidValue, "invite request record flags \(flags)") }
        var record = InviteRequestRecord(context: context, timingUnverified: flags & 2 != 0)
        guard (chain + waiting).allSatisfy({ $0.tbs.context == context }),
              chain.enumerated().allSatisfy({ Int($0.element.tbs.revision) == $0.offset }),
              chain.count + waiting.count <= InviteLinkLimits.requestsPerContext else {
            throw MLSError(.invalidValue, "invite request record's requests do not form its chain")
        }
        record.chain = chain
        record.waiting = waiting
        record.conflicting = flags & 1 != 0
        record.revoked = flags & 4 != 0
        let withdrawal = try r.readOpaque()
        record.withdrawal = withdrawal.isEmpty ? nil : try InviteWithdrawalV1(decoding: withdrawal)
        record.declines = try r.readVector {
            InviteRequestRecord.Decline(admin: try InviteLinkCodec.readOpaque(&$0, 32...32, .invalidValue, "decline admin"),
                                        requestHash: try InviteLinkCodec.readOpaque(&$0, 32...32, .invalidValue, "declined request"))
        }
        switch try r.readUInt8() {
        case 0: break
        case 1: record.realization = .init(requestHash: try r.readBytes(32), commitHash: try r.readBytes(32), welcomeHash: try r.readBytes(32))
        case let b: throw MLSError(.invalidValue, "invite request record realization flag \(b)")
        }
        return record
    }
}
