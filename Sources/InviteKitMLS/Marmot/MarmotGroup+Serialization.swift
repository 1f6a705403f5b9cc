import InviteKitCrypto
import InviteKitNostr

extension MarmotGroup {
    /// The format byte of ``serialized()``.
    public static var serializationVersion: UInt8 { 5 }
    /// The versions ``init(serialized:)`` reads: 1 (which also held the buffered events), 2 (a
    /// snapshot's group data where 3 has its committer), 3 (no convergence facts: read with
    /// empty digests and witnesses), 4 (the seen ids and hashes inside, moved to ``seenLog``) and 5.
    public static var readableSerializationVersions: ClosedRange<UInt8> { 1...5 }
    static var envelope: VersionedEnvelope { VersionedEnvelope("Marmot state", version: serializationVersion, readable: readableSerializationVersions) }

    /// The member's Marmot state as versioned bytes, in zeroizing storage because it holds every
    /// secret (PROTOCOL.md §5.10): `uint8 version = 5; opaque engine<V>; Snapshot snapshots<V>;
    /// opaque leave_requests<V>; opaque current_witnesses<V>;` with `Snapshot = { opaque engine<V>; opaque committer<V>;
    /// uint64 created_at; opaque event_id<V>; opaque content_hash<V>; opaque added<V>;
    /// opaque key_package_events<V>; opaque commit_digest<V>; uint8 priority; opaque
    /// witnesses<V>; }` (`committer`: the applied commit's committer, 32 bytes; version 2 held the
    /// group data there, which the snapshot's GroupContext gives anyway; the last three and
    /// `current_witnesses` are convergence v1's facts, PROTOCOL §5.13). Events are kept as their
    /// JSON; the Nostr identity key is never part of it, nor is ``buffer`` (nothing an outsider
    /// sends grows it), nor ``seenLog`` (so the messages a member reads do not grow it either). A snapshot's engine is stored relative to the current one
    /// (``MarmotEngine/serialized(relativeTo:)``: for ``MLSGroupState``, its tree as a delta).
    public func serialized() -> SecureBytes { serialized(current: state.serialized()) }

    /// ``serialized()`` with `current` as the current engine's bytes.
    func serialized(current: SecureBytes) -> SecureBytes {
        Self.envelope.seal(capacity: 4096) { w in
            current.withUnsafeBytes { w.writeOpaque($0) }
            w.writeVector { v in
                for s in snapshots {
                    s.state.serialized(relativeTo: state).withUnsafeBytes { v.writeOpaque($0) }
                    v.writeOpaque(s.committer)
                    v.writeUInt64(UInt64(bitPattern: s.createdAt))
                    v.writeOpaque(Array(s.eventID.utf8))
                    v.writeOpaque(s.contentHash)
                    v.writeVector { a in for id in s.added { a.writeOpaque(id) } }
                    v.writeVector { k in for e in s.keyPackageEvents.values.sorted(by: { $0.id < $1.id }) { k.writeOpaque(e.jsonBytes) } }
                    v.writeOpaque(s.commitDigest)
                    v.writeUInt8(UInt8(s.priority.rawValue))
                    v.writeVector { a in for id in s.witnesses { a.writeOpaque(id) } }
                }
            }
            w.writeVector { v in for p in leaveRequests { v.writeOpaque(Array(p.utf8)) } }
            w.writeVector { v in for id in currentWitnesses { v.writeOpaque(id) } }
        }
    }

    /// Reads ``serialized()`` back. A state of version 4 or older (whose layout had `opaque
    /// seen_event_ids<V>; opaque seen_content_hashes<V>` before `leave_requests`) is migrated: its
    /// seen entries move to ``seenLog`` under the current epoch, as changes to save. A version-1
    /// state (which also had `opaque buffered_events<V>` after them) has its buffered events moved
    /// to ``buffer``, within its bounds. Fails with a typed error on any other version, truncation,
    /// trailing bytes or any inconsistent part.
    public init(serialized data: SecureBytes) throws {
        try self.init(serialized: data) { try Engine(serialized: $0, relativeTo: nil) }
    }

    /// ``init(serialized:)`` with `current` reading the current engine's bytes.
    init(serialized data: SecureBytes, current readCurrent: (SecureBytes) throws -> Engine) throws {
        func engine(_ r: inout TLSReader, _ read: (SecureBytes) throws -> Engine) throws -> Engine {
            var b = try r.readOpaque()
            defer { zeroize(&b) }
            return try read(SecureBytes(copying: b))
        }
        func event(_ r: inout TLSReader) throws -> NostrEvent {
            do { return try NostrEvent(json: try r.readOpaque(), requireSignature: false) } catch let e as MLSError { throw e } catch {
                throw MLSError(.invalidValue, "stored event: \(error)")
            }
        }
        func text(_ r: inout TLSReader) throws -> String {
            guard let s = String(validating: try r.readOpaque(), as: UTF8.self) else { throw MLSError(.invalidValue, "stored text is not UTF-8") }
            return s
        }
        func witnesses(_ r: inout TLSReader) throws -> [[UInt8]] {
            let ids = try r.readVector { try $0.readOpaque() }
            guard ids.count <= ConvergencePolicy.v1.witnessQuorumSendersPerEpoch, ids.allSatisfy({ $0.count == 32 }) else {
                throw MLSError(.invalidValue, "stored witnesses")
            }
            return ids
        }
        self = try Self.envelope.open(data) { version, r in
            let current = try engine(&r, readCurrent)
            var group = MarmotGroup(state: current, groupData: try MarmotGroupData(extensions: current.groupContextExtensions))
            group.snapshots = try r.readVector { v in
                let s = try engine(&v) { try Engine(serialized: $0, relativeTo: current) }
                // Version 3: the committer. Versions 1 and 2 stored the group data there, which
                // is what the snapshot's own GroupContext says; the GroupContext is the one source.
                var committer: [UInt8] = []
                if version >= 3 { committer = try v.readOpaque() } else { _ = try v.skipOpaque() }
                guard committer.isEmpty || committer.count == 32 else { throw MLSError(.invalidValue, "stored committer is not 32 bytes") }
                let data = try MarmotGroupData(extensions: s.groupContextExtensions)
                let createdAt = Int64(bitPattern: try v.readUInt64())
                let id = try text(&v)
                let hash = try v.readOpaque()
                let added = try v.readVector { try $0.readOpaque() }
                var kp: [String: NostrEvent] = [:]
                for e in try v.readVector({ try event(&$0) }) { kp[e.pubkey] = e }
                var snapshot = Snapshot(state: s, groupData: data, createdAt: createdAt, eventID: id, contentHash: hash, added: added,
                                        keyPackageEvents: kp, committer: committer)
                if version >= 4 {
                    snapshot.commitDigest = try v.readOpaque()
                    guard snapshot.commitDigest.isEmpty || snapshot.commitDigest.count == 32 else { throw MLSError(.invalidValue, "stored commit digest is not 32 bytes") }
                    guard let priority = CommitPriority(rawValue: Int(try v.readUInt8())) else { throw MLSError(.invalidValue, "stored commit priority") }
                    snapshot.priority = priority
                    snapshot.witnesses = try witnesses(&v)
                }
                return snapshot
            }
            if version <= 4 {
                let ids = try r.readVector { try text(&$0) }
                let hashes = try r.readVector { try $0.readOpaque() }
                group.seenLog = MarmotSeenLog(migratingEventIDs: ids, contentHashes: hashes, epoch: current.epoch)
            }
            if version == 1 {
                for e in try r.readVector({ try MarmotEventBuffer.storedEvent(&$0) }) { group.buffer.append(e) }
            }
            group.leaveRequests = try r.readVector { try text(&$0) }
            if version >= 4 { group.currentWitnesses = try witnesses(&r) }
            return group
        }
    }
}

extension MarmotGroup where Engine == MLSGroupState {
    /// ``serialized()`` without the current ratchet tree (``MLSGroupState/serializedWithoutTree()``),
    /// for a store that keeps the tree apart in chunks (docs/storage.md §6): a message leaves the
    /// tree unchanged, so saving it rewrites none of the tree. Read it back with
    /// ``init(serialized:apartTree:)``.
    package func serializedWithoutTree() -> SecureBytes { serialized(current: state.serializedWithoutTree()) }

    /// Reads ``serializedWithoutTree()`` (or ``serialized()``) back, with `apartTree` as the
    /// current tree; fails with a typed error when it does not match the stored width or the
    /// GroupContext's tree hash.
    package init(serialized data: SecureBytes, apartTree: RatchetTree) throws {
        try self.init(serialized: data) { try MLSGroupState(serialized: $0, relativeTo: nil, apartTree: apartTree) }
    }
}
