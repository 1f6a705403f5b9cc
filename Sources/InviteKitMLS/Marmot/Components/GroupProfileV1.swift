/// `marmot.group.profile.v1`, component `0x8001` (`app-components/group-profile-v1.md`; MDK
/// v0.9.14 `crates/traits/src/app_components/profile.rs:16`): the group's name and description.
///
///     struct { opaque name<0..256>; opaque description<0..4096>; } MarmotGroupProfileV1;
///
/// The update is the whole new state.
public struct GroupProfileV1: Hashable, Sendable {
    public static let maxNameBytes = 256
    public static let maxDescriptionBytes = 4096

    public var name: String
    public var description: String

    public init(name: String, description: String) throws {
        self.name = name
        self.description = description
        try validate()
    }

    public func validate() throws {
        guard name.utf8.count <= Self.maxNameBytes else { throw MLSError(.invalidComponent, "group name is above \(Self.maxNameBytes) bytes") }
        guard description.utf8.count <= Self.maxDescriptionBytes else {
            throw MLSError(.invalidComponent, "group description is above \(Self.maxDescriptionBytes) bytes")
        }
    }

    public var encoded: [UInt8] {
        ComponentCodec.encode { w in
            w.writeOpaque(Array(name.utf8))
            w.writeOpaque(Array(description.utf8))
        }
    }

    public init(decoding bytes: [UInt8]) throws {
        (name, description) = try ComponentCodec.decode(bytes, "group profile") { r in
            (try ComponentCodec.readText(&r, max: Self.maxNameBytes, "name"), try ComponentCodec.readText(&r, max: Self.maxDescriptionBytes, "description"))
        }
    }
}
