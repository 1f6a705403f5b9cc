import InviteKitCrypto

extension MLSPendingCommit {
    static let envelope = VersionedEnvelope("engine pending commit", version: 1)

    /// Versioned bytes for keeping a pending commit until the delivery service acknowledged it:
    /// `uint8 version = 1; opaque message<V>; optional<opaque welcome<V>>; uint64 from_epoch;
    /// opaque next_state<V>; (uint32 leaf, KeyPackage) added<V>; uint32 removed<V>;`. The next
    /// state holds every secret, so the whole is in zeroizing storage.
    package func serialized() -> SecureBytes {
        Self.envelope.seal(capacity: 4096) { w in
            w.writeOpaque(message)
            if let welcome { w.writeUInt8(1); w.writeOpaque(welcome) } else { w.writeUInt8(0) }
            w.writeUInt64(fromEpoch)
            next.serialized().withUnsafeBytes { w.writeOpaque($0) }
            w.writeVector { v in for a in added { v.writeUInt32(a.leaf); a.keyPackage.encode(to: &v) } }
            w.writeVector { v in for r in removed { v.writeUInt32(r) } }
        }
    }

    /// Reads ``serialized()`` back.
    package init(serialized data: SecureBytes) throws {
        let (message, welcomeBytes, from, next, added, removed) = try Self.envelope.open(data) { _, r in
            let message = try r.readOpaque()
            let welcomeBytes = try r.readOptional { try $0.readOpaque() }
            let from = try r.readUInt64()
            var stateBytes = try r.readOpaque()
            defer { zeroize(&stateBytes) }
            let next = try MLSGroupState(serialized: SecureBytes(copying: stateBytes))
            let added: [(leaf: UInt32, keyPackage: KeyPackage)] = try r.readVector { v in (try v.readUInt32(), try KeyPackage(from: &v)) }
            let removed: [UInt32] = try r.readVector { try $0.readUInt32() }
            return (message, welcomeBytes, from, next, added, removed)
        }
        var welcome: Welcome?
        if let welcomeBytes {
            guard case .welcome(let w) = try MLSMessage(tlsSerialized: welcomeBytes).body else { throw MLSError(.invalidValue, "not a Welcome") }
            welcome = w
        }
        guard next.epoch == from + 1 else { throw MLSError(.invalidValue, "pending commit epochs do not line up") }
        self.init(message: message, welcome: welcomeBytes, welcomeValue: welcome, fromEpoch: from, next: next, added: added, removed: removed)
    }
}
