import InviteKitCrypto

/// The kind-445 events a group accepted or sent, for dropping replays before any work (PROTOCOL.md
/// §5.9): each event's id and the SHA-256 of its content, recorded under the MLS epoch the event
/// belongs to. Kept apart from the group's state (issue 31), so that a message adds rows to its
/// owner's store instead of rewriting a growing blob, and bounded twice: per epoch, at most
/// ``eventLimitPerEpoch`` events (the oldest forgotten first), and in epochs, the group's epoch
/// window (``MarmotProfile/epochLookback``): an event of an epoch past it no longer opens, so its
/// record goes with the epoch. A value is 32 bytes, so an epoch holds at most
/// ``byteLimitPerEpoch`` bytes of values.
///
/// Forgetting is safe: a replay the log forgot is still refused further in, by the epoch rules
/// for commits and by the secret tree's used-generation rule for messages (RFC 9420 §9.4); it
/// costs the work of reaching that check, never a second application.
///
/// An owner that stores the log as rows applies ``changes`` with the state it saves and then
/// calls ``markSaved()``; one that stores it whole writes ``serialized()``.
public struct MarmotSeenLog: Sendable, Equatable {
    /// What an entry's value is.
    public enum Kind: UInt8, Sendable, Hashable {
        /// The event's id (its 32 bytes; an id that is not 64 hex characters, which no parsed
        /// event has, by the SHA-256 of its text).
        case eventID = 0
        /// SHA-256 of the event's `content`: the same MLS message in another wrapper.
        case contentHash = 1
    }

    /// One recorded value.
    public struct Entry: Sendable, Hashable {
        /// The MLS epoch of the event it records.
        public let epoch: UInt64
        public let kind: Kind
        /// 32 bytes.
        public let value: [UInt8]
        /// The entry's place in the log, oldest first; unique within the log.
        public let sequence: UInt64

        public init(epoch: UInt64, kind: Kind, value: [UInt8], sequence: UInt64) {
            self.epoch = epoch; self.kind = kind; self.value = value; self.sequence = sequence
        }
    }

    /// What changed since ``markSaved()``, for an owner that stores entries as rows: delete the
    /// entries of epochs below ``prunedBelow``, then each epoch's entries up to its
    /// ``evictedThrough`` sequence, then insert ``added``. Its size is bounded by the log's.
    public struct Changes: Sendable, Equatable {
        /// The window moved: every entry of an epoch below this is gone.
        public internal(set) var prunedBelow: UInt64?
        /// Per epoch, entries up to this sequence were forgotten to make room.
        public internal(set) var evictedThrough: [UInt64: UInt64] = [:]
        /// Entries recorded, oldest first; none of them is forgotten yet.
        public internal(set) var added: [Entry] = []

        public var isEmpty: Bool { prunedBelow == nil && evictedThrough.isEmpty && added.isEmpty }
    }

    /// At most this many events are remembered per epoch (PROTOCOL.md §5.9): an id and a content
    /// hash each.
    package static let eventLimitPerEpoch = 256
    /// The entries an epoch holds at most: two per event.
    package static var entryLimitPerEpoch: Int { 2 * eventLimitPerEpoch }
    /// Bytes of one entry's value.
    package static let valueByteCount = 32
    /// The bytes of values an epoch holds at most.
    package static var byteLimitPerEpoch: Int { entryLimitPerEpoch * valueByteCount }
    /// The format byte of ``serialized()``.
    package static var serializationVersion: UInt8 { 1 }
    static let envelope = VersionedEnvelope("seen log", version: serializationVersion)

    private struct Key: Hashable {
        let kind: Kind
        let value: [UInt8]
    }

    /// Per epoch, its entries oldest first.
    private var epochs: [UInt64: [Entry]] = [:]
    /// Every held value with its epoch.
    private var index: [Key: UInt64] = [:]
    private var nextSequence: UInt64 = 0
    /// Changes not yet saved (see ``Changes``).
    public private(set) var changes = Changes()
    /// Counts the log's changes: a caller compares it before and after a step.
    package private(set) var revision: UInt64 = 0

    public init() {}

    /// A log holding `entries` (from its owner's rows), with nothing to save. Entries past an
    /// epoch's bound are forgotten, the oldest first, and reported in ``changes``. Fails with a
    /// typed error on a value that is not 32 bytes or a sequence used twice.
    public init(entries: [Entry]) throws {
        var seen = Set<UInt64>()
        for e in entries.sorted(by: { $0.sequence < $1.sequence }) {
            guard e.value.count == Self.valueByteCount else { throw MLSError(.invalidValue, "a seen-log value is \(e.value.count) bytes, not 32") }
            guard seen.insert(e.sequence).inserted else { throw MLSError(.invalidValue, "seen-log sequence \(e.sequence) used twice") }
            nextSequence = max(nextSequence, e.sequence &+ 1)
            insert(e)
        }
    }

    public static func == (a: MarmotSeenLog, b: MarmotSeenLog) -> Bool { a.entries == b.entries }

    /// Every entry, oldest first.
    public var entries: [Entry] { epochs.values.flatMap { $0 }.sorted { $0.sequence < $1.sequence } }

    public var count: Int { index.count }
    public var isEmpty: Bool { index.isEmpty }

    /// The epochs holding entries, ascending.
    package var recordedEpochs: [UInt64] { epochs.keys.sorted() }

    /// The entries of `epoch`.
    package func count(epoch: UInt64) -> Int { epochs[epoch]?.count ?? 0 }

    /// The 32 bytes an event id is kept as.
    package static func value(ofEventID id: String) -> [UInt8] {
        Hex.decode(id, count: valueByteCount) ?? SHA256.hash(Array(id.utf8))
    }

    package func contains(eventID id: String) -> Bool { index[Key(kind: .eventID, value: Self.value(ofEventID: id))] != nil }

    package func contains(contentHash hash: [UInt8]) -> Bool { index[Key(kind: .contentHash, value: hash)] != nil }

    /// The lowest epoch the window keeps while the group is at `epoch`: the current epoch and the
    /// ``MarmotProfile/epochLookback`` before it, as many as the group retains.
    package static func windowStart(at epoch: UInt64) -> UInt64 {
        epoch >= UInt64(MarmotProfile.epochLookback) ? epoch - UInt64(MarmotProfile.epochLookback) : 0
    }

    /// Records one event of `epoch` while the group is at `currentEpoch`: first the window moves
    /// to `currentEpoch` (``prune(currentEpoch:)``); an event of an epoch outside it is not
    /// recorded, nor a value held already.
    package mutating func record(eventID: String, contentHash: [UInt8], epoch: UInt64, currentEpoch: UInt64) {
        prune(currentEpoch: currentEpoch)
        guard epoch >= Self.windowStart(at: currentEpoch) else { return }
        add(.eventID, Self.value(ofEventID: eventID), epoch: epoch)
        add(.contentHash, contentHash, epoch: epoch)
    }

    /// Forgets the epochs below the window of a group at `currentEpoch`.
    package mutating func prune(currentEpoch: UInt64) {
        let start = Self.windowStart(at: currentEpoch)
        let gone = epochs.keys.filter { $0 < start }
        guard !gone.isEmpty else { return }
        for epoch in gone {
            for e in epochs.removeValue(forKey: epoch) ?? [] { index[Key(kind: e.kind, value: e.value)] = nil }
            changes.evictedThrough[epoch] = nil
        }
        changes.prunedBelow = max(changes.prunedBelow ?? 0, start)
        changes.added.removeAll { $0.epoch < start }
        revision &+= 1
    }

    /// The owner saved ``changes``.
    package mutating func markSaved() { changes = Changes() }

    private mutating func add(_ kind: Kind, _ value: [UInt8], epoch: UInt64) {
        guard value.count == Self.valueByteCount, index[Key(kind: kind, value: value)] == nil else { return }
        let e = Entry(epoch: epoch, kind: kind, value: value, sequence: nextSequence)
        nextSequence &+= 1
        revision &+= 1
        insert(e)
        // A just-added entry evicted at once (only when the bound is zero) is not reported.
        if index[Key(kind: kind, value: value)] != nil { changes.added.append(e) }
    }

    /// Holds `e`, forgetting its epoch's oldest entries past the bound.
    private mutating func insert(_ e: Entry) {
        guard index[Key(kind: e.kind, value: e.value)] == nil else { return }
        index[Key(kind: e.kind, value: e.value)] = e.epoch
        epochs[e.epoch, default: []].append(e)
        let over = (epochs[e.epoch]?.count ?? 0) - Self.entryLimitPerEpoch
        guard over > 0, let held = epochs[e.epoch] else { return }
        let dropped = held.prefix(over)
        for old in dropped { index[Key(kind: old.kind, value: old.value)] = nil }
        epochs[e.epoch] = Array(held.dropFirst(over))
        if let last = dropped.last {
            changes.evictedThrough[e.epoch] = max(changes.evictedThrough[e.epoch] ?? 0, last.sequence)
            let forgotten = Set(dropped.map(\.sequence))
            changes.added.removeAll { forgotten.contains($0.sequence) }
        }
    }
}

extension MarmotSeenLog {
    /// `uint8 version = 1; struct { uint64 epoch; uint8 kind; opaque value<V>; } entries<V>`,
    /// oldest first (PROTOCOL.md §5.10): the log for an owner that stores it whole (the CLI's
    /// state file). Holds no secret: ids and hashes of public events.
    package func serialized() -> [UInt8] {
        Self.envelope.write(capacity: 8 + count * (Self.valueByteCount + 11)) { w in
            w.writeVector { v in
                for e in entries {
                    v.writeUInt64(e.epoch)
                    v.writeUInt8(e.kind.rawValue)
                    v.writeOpaque(e.value)
                }
            }
        }
    }

    /// Reads ``serialized()`` back, within the log's bounds. Fails with a typed error on another
    /// version, truncation, trailing bytes, an unknown kind or a value that is not 32 bytes.
    package init(serialized bytes: [UInt8]) throws {
        let list = try Self.envelope.read(bytes) { _, r in
            try r.readVector { (v: inout TLSReader) throws -> (UInt64, Kind, [UInt8]) in
                let epoch = try v.readUInt64()
                guard let kind = Kind(rawValue: try v.readUInt8()) else { throw MLSError(.invalidValue, "unknown seen-log entry kind") }
                return (epoch, kind, try v.readOpaque())
            }
        }
        try self.init(entries: list.enumerated().map { Entry(epoch: $1.0, kind: $1.1, value: $1.2, sequence: UInt64($0)) })
    }

    /// The seen ids and hashes of a group state stored before the log had its own place (state
    /// versions 1 to 4), all recorded under `epoch`, the state's current one, and all to save.
    package init(migratingEventIDs ids: [String], contentHashes hashes: [[UInt8]], epoch: UInt64) {
        self.init()
        let ids = ids.suffix(Self.eventLimitPerEpoch), hashes = hashes.suffix(Self.eventLimitPerEpoch)
        // Both lists are oldest first and written in step: interleaved, an event's id and hash stay together.
        for (i, id) in ids.enumerated() {
            add(.eventID, Self.value(ofEventID: id), epoch: epoch)
            if i < hashes.count { add(.contentHash, hashes[hashes.startIndex + i], epoch: epoch) }
        }
        for h in hashes.dropFirst(ids.count) { add(.contentHash, h, epoch: epoch) }
    }
}
