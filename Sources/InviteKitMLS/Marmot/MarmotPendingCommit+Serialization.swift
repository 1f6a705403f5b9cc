import InviteKitCrypto
import InviteKitNostr

extension MarmotPendingCommit where Engine == MLSGroupState {
    /// The format byte of ``serialized()``.
    public static var serializationVersion: UInt8 { 2 }
    static var envelope: VersionedEnvelope { VersionedEnvelope("pending commit", version: serializationVersion, readable: 1...2) }

    /// An own commit that is built but not yet confirmed, as versioned bytes, so a caller can keep
    /// it across processes between "publish" and ``MarmotGroup/confirmPublished(_:acknowledgedBy:now:)``.
    /// It holds the next epoch's secrets, hence zeroizing storage:
    /// `uint8 version = 2; opaque event<V> (JSON); uint64 from_epoch; opaque message<V>;
    /// opaque welcome<V> (empty: none); opaque next_state<V>; Added added<V>; uint32 removed<V>;
    /// opaque key_package_events<V> (JSON each); uint8 priority;` with `Added = { uint32 leaf;
    /// KeyPackage; }` and `priority` 0 privileged, 1 ordinary, 255 unknown (PROTOCOL §5.13).
    /// Version 1 (no `priority`) is still read, with the priority unknown.
    public func serialized() -> SecureBytes {
        Self.envelope.seal(capacity: 4096) { w in
            w.writeOpaque(event.jsonBytes)
            w.writeUInt64(fromEpoch)
            w.writeOpaque(pending.message)
            w.writeOpaque(pending.welcome ?? [])
            pending.next.serialized().withUnsafeBytes { w.writeOpaque($0) }
            w.writeVector { v in
                for a in pending.added {
                    v.writeUInt32(a.leaf)
                    a.keyPackage.encode(to: &v)
                }
            }
            w.writeVector { v in for leaf in pending.removed { v.writeUInt32(leaf) } }
            w.writeVector { v in for e in keyPackageEvents { v.writeOpaque(e.jsonBytes) } }
            w.writeUInt8(priority.map { UInt8($0.rawValue) } ?? 255)
        }
    }

    /// Reads ``serialized()`` back; fails with a typed error on another version, truncation,
    /// trailing bytes or an inconsistent part (a next state that is not one epoch on).
    public init(serialized data: SecureBytes) throws {
        func readEvent(_ r: inout TLSReader, signed: Bool) throws -> NostrEvent {
            do { return try NostrEvent(json: try r.readOpaque(), requireSignature: signed) } catch let e as MLSError { throw e } catch {
                throw MLSError(.invalidValue, "stored event: \(error)")
            }
        }
        let (event, fromEpoch, message, welcomeBytes, next, added, removed, kpEvents, priority) = try Self.envelope.open(data) { version, r in
            let event = try readEvent(&r, signed: true)
            let fromEpoch = try r.readUInt64()
            let message = try r.readOpaque()
            let welcomeBytes = try r.readOpaque()
            var nextBytes = try r.readOpaque()
            defer { zeroize(&nextBytes) }
            let next = try MLSGroupState(serialized: SecureBytes(copying: nextBytes))
            let added: [(leaf: UInt32, keyPackage: KeyPackage)] = try r.readVector { v in (try v.readUInt32(), try KeyPackage(from: &v)) }
            let removed = try r.readVector { try $0.readUInt32() }
            let kpEvents = try r.readVector { try readEvent(&$0, signed: true) }
            var priority: CommitPriority?
            if version >= 2 {
                let byte = try r.readUInt8()
                if byte != 255 {
                    guard let p = CommitPriority(rawValue: Int(byte)) else { throw MLSError(.invalidValue, "stored commit priority \(byte)") }
                    priority = p
                }
            }
            return (event, fromEpoch, message, welcomeBytes, next, added, removed, kpEvents, priority)
        }
        guard next.epoch == fromEpoch &+ 1 else { throw MLSError(.invalidValue, "pending commit does not lead to the next epoch") }
        let welcome: [UInt8]? = welcomeBytes.isEmpty ? nil : welcomeBytes
        let welcomeValue = try welcome.map { try MLSGroupState.welcome($0) }
        let pending = MLSPendingCommit(message: message, welcome: welcome, welcomeValue: welcomeValue, fromEpoch: fromEpoch, next: next,
                                       added: added, removed: removed)
        self.init(event: event, fromEpoch: fromEpoch, pending: pending, welcome: welcome, keyPackageEvents: kpEvents, priority: priority)
    }
}
