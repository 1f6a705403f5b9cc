/// The `app_data_dictionary` extension (type `0x0006`, draft-ietf-mls-extensions-10 §4.6):
///
///     struct { ComponentID component_id; opaque data<V>; } ComponentData;
///     struct { ComponentData component_data<V>; } AppDataDictionary;
///
/// Entries sorted by id, at most one per id; the reader refuses anything else. It may sit in a
/// GroupContext, a LeafNode, a KeyPackage or a GroupInfo; what each location may hold is the
/// owning component's rule, checked by the Marmot layer.
public struct AppDataDictionary: Hashable, Sendable {
    /// `ExtensionType` of the dictionary.
    public static let extensionType: UInt16 = 0x0006

    public struct Entry: Hashable, Sendable {
        public let id: UInt16
        public let data: [UInt8]
        public init(id: UInt16, data: [UInt8]) {
            self.id = id
            self.data = data
        }
    }

    /// Ascending by id, unique.
    public private(set) var entries: [Entry]

    public init() { entries = [] }

    /// Sorts `entries`; refuses a repeated id.
    public init(_ entries: [Entry]) throws {
        let sorted = entries.sorted { $0.id < $1.id }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.id == b.id {
            throw MLSError(.invalidComponent, "two entries for component \(ComponentID.hex(a.id))")
        }
        self.entries = sorted
    }

    public var ids: [UInt16] { entries.map(\.id) }

    public subscript(id: UInt16) -> [UInt8]? {
        entries.first { $0.id == id }?.data
    }

    /// Sets (or adds) the data of `id`.
    public mutating func set(_ id: UInt16, _ data: [UInt8]) {
        if let i = entries.firstIndex(where: { $0.id == id }) {
            entries[i] = Entry(id: id, data: data)
        } else {
            entries.append(Entry(id: id, data: data))
            entries.sort { $0.id < $1.id }
        }
    }

    /// Removes the entry of `id`; `false` when there was none.
    @discardableResult
    public mutating func remove(_ id: UInt16) -> Bool {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: i)
        return true
    }

    /// The extension data.
    public var encoded: [UInt8] {
        var w = TLSWriter(capacity: entries.reduce(4) { $0 + 4 + $1.data.count })
        w.writeVector { v in
            for e in entries {
                v.writeUInt16(e.id)
                v.writeOpaque(e.data)
            }
        }
        return w.bytes
    }

    /// The dictionary as an extension.
    public var `extension`: MLSExtension { MLSExtension(type: Self.extensionType, data: encoded) }

    /// Reads the extension data exactly: ids strictly ascending, no trailing bytes.
    public init(decoding bytes: [UInt8]) throws {
        var r = TLSReader(bytes)
        var previous: UInt16?
        let parsed: [Entry] = try r.readVector { v in
            let id = try v.readUInt16()
            if let previous, id <= previous {
                throw MLSError(.invalidComponent, id == previous ? "two entries for component \(ComponentID.hex(id))" : "app_data_dictionary is not sorted")
            }
            previous = id
            return Entry(id: id, data: try v.readOpaque())
        }
        guard r.isAtEnd else { throw MLSError(.trailingBytes, "app_data_dictionary has trailing bytes") }
        entries = parsed
    }

    /// The dictionary among `extensions`, `nil` when there is none; refuses two.
    public init?(extensions: [MLSExtension]) throws {
        let found = extensions.filter { $0.extensionType == Self.extensionType }
        guard !found.isEmpty else { return nil }
        guard found.count == 1 else { throw MLSError(.invalidComponent, "two app_data_dictionary extensions") }
        try self.init(decoding: found[0].data)
    }
}
