/// The `AppDataUpdate` proposal (type `0x0008`, draft-ietf-mls-extensions-10 §4.6.2): replaces or
/// removes one GroupContext component's data.
///
///     enum { invalid(0), update(1), remove(2), (255) } AppDataUpdateOperation;
///     struct {
///         ComponentID component_id;
///         AppDataUpdateOperation op;
///         select (op) { case update: opaque update<V>; case remove: struct {}; };
///     } AppDataUpdate;
///
/// What `update` means is the component's rule; every Marmot GroupContext component defines its
/// update as the whole new state (`shared/marmot/v2/app-components/README.md`, "Common Rules").
public struct AppDataUpdate: Hashable, Sendable {
    public enum Operation: Hashable, Sendable {
        case update([UInt8])
        case remove
    }

    public let componentID: UInt16
    public let operation: Operation

    public init(componentID: UInt16, operation: Operation) {
        self.componentID = componentID
        self.operation = operation
    }

    func encode(to writer: inout TLSWriter) {
        writer.writeUInt16(componentID)
        switch operation {
        case .update(let data):
            writer.writeUInt8(1)
            writer.writeOpaque(data)
        case .remove:
            writer.writeUInt8(2)
        }
    }

    init(from reader: inout TLSReader) throws {
        componentID = try reader.readUInt16()
        switch try reader.readUInt8() {
        case 1: operation = .update(try reader.readOpaque())
        case 2: operation = .remove
        case let op: throw MLSError(.invalidProposal, "AppDataUpdate operation \(op)")
        }
    }

    /// Applies `updates` (one commit's, in proposal order) to the GroupContext `extensions`:
    /// at most one operation per component, `remove` only of a present entry. The dictionary is
    /// created when absent. What the bytes mean is checked by the caller.
    static func apply(_ updates: [AppDataUpdate], to extensions: [MLSExtension]) throws -> [MLSExtension] {
        guard !updates.isEmpty else { return extensions }
        var dictionary = try AppDataDictionary(extensions: extensions) ?? AppDataDictionary()
        var seen = Set<UInt16>()
        for u in updates {
            guard seen.insert(u.componentID).inserted else {
                throw MLSError(.invalidProposal, "two AppDataUpdate operations for component \(ComponentID.hex(u.componentID))")
            }
            switch u.operation {
            case .update(let data): dictionary.set(u.componentID, data)
            case .remove:
                guard dictionary.remove(u.componentID) else {
                    throw MLSError(.invalidProposal, "AppDataUpdate removes absent component \(ComponentID.hex(u.componentID))")
                }
            }
        }
        var out = extensions.filter { $0.extensionType != AppDataDictionary.extensionType }
        if let i = extensions.firstIndex(where: { $0.extensionType == AppDataDictionary.extensionType }) {
            out.insert(dictionary.extension, at: min(i, out.count))
        } else {
            out.append(dictionary.extension)
        }
        return out
    }
}
