import InviteKitCrypto

extension MarmotGroupData: TLSCodable {
    /// Reads the 0xf2ee extension data. Refuses version 0, a `nostr_group_id` that is not 32 bytes,
    /// admin keys that are not a whole number of 32-byte keys, non-UTF-8 text, relays that are not
    /// ws/wss URLs, image fields of the wrong length, duplicates, and (via ``init(tlsSerialized:)``)
    /// trailing bytes, as MDK 0.8.0 does. A newer version is read with the version 2 layout, as MDK
    /// does for forward compatibility.
    package init(from reader: inout TLSReader) throws {
        profile = .mip
        carriedComponents = [:]
        requiredComponents = ComponentsList([])
        version = try reader.readUInt16()
        nostrGroupID = try reader.readBytes(32)
        guard let name = String(validating: try reader.readOpaque(), as: UTF8.self),
              let description = String(validating: try reader.readOpaque(), as: UTF8.self) else {
            throw MLSError(.invalidGroupData, "name or description is not UTF-8")
        }
        self.name = name
        self.description = description
        let adminBytes = try reader.readOpaque()
        guard adminBytes.count % 32 == 0 else { throw MLSError(.invalidGroupData, "admin_pubkeys is not a whole number of 32-byte keys") }
        admins = stride(from: 0, to: adminBytes.count, by: 32).map { Array(adminBytes[$0..<$0 + 32]) }
        relays = try reader.readVector { r in
            guard let url = String(validating: try r.readOpaque(), as: UTF8.self) else {
                throw MLSError(.invalidGroupData, "relay URL is not UTF-8")
            }
            return url
        }
        func optional(_ bytes: [UInt8]) -> [UInt8]? { bytes.isEmpty ? nil : bytes }
        func secret(_ bytes: [UInt8]) -> SecureBytes? {
            var copy = bytes
            defer { zeroize(&copy) }
            return copy.isEmpty ? nil : SecureBytes(copying: copy)
        }
        imageHash = optional(try reader.readOpaque())
        var key = try reader.readOpaque()
        imageKey = secret(key)
        zeroize(&key)
        imageNonce = optional(try reader.readOpaque())
        var upload = try reader.readOpaque()
        imageUploadKey = secret(upload)
        zeroize(&upload)
        try validate()
    }

    package func encode(to writer: inout TLSWriter) {
        writer.writeUInt16(version)
        writer.writeBytes(nostrGroupID)
        writer.writeOpaque(Array(name.utf8))
        writer.writeOpaque(Array(description.utf8))
        let sortedAdmins = Set(admins).sorted { $0.lexicographicallyPrecedes($1) }
        writer.writeOpaque(sortedAdmins.flatMap { $0 })
        let sortedRelays = Set(relays).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        writer.writeVector { w in for relay in sortedRelays { w.writeOpaque(Array(relay.utf8)) } }
        writer.writeOpaque(imageHash ?? [])
        if let imageKey { imageKey.withUnsafeBytes { writer.writeOpaque($0) } } else { writer.writeOpaque([UInt8]()) }
        writer.writeOpaque(imageNonce ?? [])
        if let imageUploadKey { imageUploadKey.withUnsafeBytes { writer.writeOpaque($0) } } else { writer.writeOpaque([UInt8]()) }
    }
}
