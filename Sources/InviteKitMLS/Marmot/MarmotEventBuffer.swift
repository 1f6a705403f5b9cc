import InviteKitNostr

/// Kind-445 events of one group that no retained key opens yet (or commits waiting for a
/// proposal), kept apart from the group's state so that what outsiders send never grows it
/// (PROTOCOL.md §5.9). Bounded by a count and by the bytes of the events' JSON; when either bound
/// would be passed, the oldest events are evicted and returned. Events are public ciphertexts: no
/// secret is held here.
public struct MarmotEventBuffer: Sendable, Equatable {
    /// The buffer's bounds; ``default`` is PROTOCOL.md §5.9's.
    package struct Limits: Sendable, Equatable {
        package var maxEvents: Int
        package var maxBytes: Int

        package init(maxEvents: Int, maxBytes: Int) {
            self.maxEvents = max(0, maxEvents)
            self.maxBytes = max(0, maxBytes)
        }

        package static let `default` = Limits(maxEvents: MarmotProfile.bufferedEventLimit, maxBytes: MarmotProfile.bufferedByteLimit)
    }

    /// The format byte of ``serialized()``.
    package static var serializationVersion: UInt8 { 1 }

    package let limits: Limits
    /// Oldest first.
    package private(set) var events: [NostrEvent] = []
    /// The JSON bytes of ``events``, the figure ``Limits/maxBytes`` bounds.
    package private(set) var byteCount = 0
    private var sizes: [Int] = []
    /// The ids of ``events``: every ingested event asks whether it is buffered already.
    private var ids: Set<String> = []

    package init(limits: Limits = .default) {
        self.limits = limits
    }

    package var isEmpty: Bool { events.isEmpty }
    package var count: Int { events.count }

    public static func == (a: MarmotEventBuffer, b: MarmotEventBuffer) -> Bool {
        a.limits == b.limits && a.events == b.events
    }

    /// The bytes an event costs: its JSON, as stored.
    package static func cost(of event: NostrEvent) -> Int { event.jsonBytes.count }

    public func contains(eventID: String) -> Bool { ids.contains(eventID) }

    /// Appends `event` (unless an event with its id is already held) and returns the events
    /// evicted to make room, oldest first. An event larger than the whole byte bound is not kept:
    /// it is returned as evicted itself.
    @discardableResult
    package mutating func append(_ event: NostrEvent) -> [NostrEvent] {
        if contains(eventID: event.id) { return [] }
        let size = Self.cost(of: event)
        guard size <= limits.maxBytes, limits.maxEvents > 0 else { return [event] }
        var evicted: [NostrEvent] = []
        var drop = 0
        var bytes = byteCount
        while events.count - drop >= limits.maxEvents || bytes + size > limits.maxBytes {
            bytes -= sizes[drop]
            drop += 1
        }
        if drop > 0 {
            evicted = Array(events[..<drop])
            for e in evicted { ids.remove(e.id) }
            events.removeFirst(drop)
            sizes.removeFirst(drop)
        }
        events.append(event)
        ids.insert(event.id)
        sizes.append(size)
        byteCount = bytes + size
        return evicted
    }

    /// Empties the buffer and returns what it held, oldest first.
    package mutating func removeAll() -> [NostrEvent] {
        let out = events
        events = []
        sizes = []
        ids = []
        byteCount = 0
        return out
    }

    /// `uint8 version = 1; opaque events<V>` with each event's JSON as an `opaque<V>`, oldest
    /// first (PROTOCOL.md §5.10).
    package func serialized() -> [UInt8] {
        VersionedEnvelope("buffered events", version: Self.serializationVersion).write(capacity: 16 + byteCount + 4 * events.count) { w in
            w.writeVector { v in for e in events { v.writeOpaque(e.jsonBytes) } }
        }
    }

    /// Reads ``serialized()`` back under `limits` (events past them are dropped, oldest first).
    /// Fails with a typed error on another version, truncation, trailing bytes or an event that is
    /// not kind-445 JSON.
    package init(serialized bytes: [UInt8], limits: Limits = .default) throws {
        self.init(limits: limits)
        let list = try VersionedEnvelope("buffered events", version: Self.serializationVersion).read(bytes) { _, r in
            try r.readVector { try Self.storedEvent(&$0) }
        }
        for e in list { append(e) }
    }

    static func storedEvent(_ r: inout TLSReader) throws -> NostrEvent {
        let e: NostrEvent
        do { e = try NostrEvent(json: try r.readOpaque(), requireSignature: false) } catch let err as MLSError { throw err } catch {
            throw MLSError(.invalidValue, "stored event: \(error)")
        }
        guard e.kind == MarmotProfile.groupEventKind else { throw MLSError(.invalidValue, "stored buffered event of kind \(e.kind)") }
        return e
    }
}
