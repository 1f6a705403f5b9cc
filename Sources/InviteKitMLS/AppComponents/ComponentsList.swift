/// A list of component ids (draft-ietf-mls-extensions-10 §4.6, `ComponentID component_ids<V>`):
/// an MLS varint byte length, then big-endian `uint16` ids. Read strictly, as MDK 0.9.14 does
/// (`crates/traits/src/app_components/codec.rs:17`): shortest-form length, a whole number of
/// ids, ascending, no duplicates. Written sorted and unique.
public struct ComponentsList: Hashable, Sendable {
    /// Ascending and unique.
    public private(set) var ids: [UInt16]

    /// Sorts and deduplicates `ids`.
    public init<S: Sequence>(_ ids: S) where S.Element == UInt16 {
        self.ids = Array(Set(ids)).sorted()
    }

    public func contains(_ id: UInt16) -> Bool { ids.contains(id) }

    /// The bytes (`data` of the `app_components` entry).
    public var encoded: [UInt8] {
        var w = TLSWriter(capacity: 2 + ids.count * 2)
        w.writeVector { v in for id in ids { v.writeUInt16(id) } }
        return w.bytes
    }

    /// Reads `bytes` exactly: refuses trailing bytes, an odd byte count, unsorted or repeated ids.
    public init(decoding bytes: [UInt8]) throws {
        var r = TLSReader(bytes)
        let body = try r.readOpaque()
        guard r.isAtEnd else { throw MLSError(.trailingBytes, "ComponentsList has trailing bytes") }
        guard body.count % 2 == 0 else { throw MLSError(.invalidComponent, "ComponentsList is not a whole number of ids") }
        var out: [UInt16] = []
        out.reserveCapacity(body.count / 2)
        for i in stride(from: 0, to: body.count, by: 2) {
            let id = UInt16(body[i]) << 8 | UInt16(body[i + 1])
            if let last = out.last, id <= last {
                throw MLSError(.invalidComponent, id == last ? "ComponentsList repeats \(ComponentID.hex(id))" : "ComponentsList is not sorted")
            }
            out.append(id)
        }
        ids = out
    }
}
