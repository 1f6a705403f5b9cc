import InviteKitCrypto
@testable import InviteKitMLS

/// A deterministic stand-in for the RFC 9420 engine, for testing the Marmot binding's rules only.
/// It is not MLS and not secure: messages are framed like MLSMessages (so the binding reads their
/// headers), authenticated with a hash of the epoch secret, and each commit's epoch secret is the
/// hash of the previous one and the commit, so two branches never share keys.
struct MarmotToyEngine: MarmotEngine {
    struct Pending: Sendable { let next: MarmotToyEngine }

    var groupID: [UInt8]
    var epoch: UInt64
    var secret: [UInt8]
    var members: [[UInt8]?]
    var ownLeaf: UInt32
    var groupContextExtensions: [MLSExtension]
    var isRemoved = false
    var selfRemoves: [UInt32] = []
    var pastSecrets: [UInt64: [UInt8]] = [:]

    var ownIdentity: [UInt8] { members[Int(ownLeaf)] ?? [] }
    var memberIdentities: [[UInt8]] { members.compactMap { $0 } }

    static func create(groupID: [UInt8], creator: KeyPackageBundle, extensions: [MLSExtension], rng: RandomSource) throws -> MarmotToyEngine {
        MarmotToyEngine(groupID: groupID, epoch: 0, secret: rng.bytes(32), members: [creator.keyPackage.leafNode.credential.identity],
                        ownLeaf: 0, groupContextExtensions: extensions)
    }

    func exporter(label: String, context: [UInt8], length: Int) -> SecureBytes {
        MarmotExporter.export(exporterSecret: SecureBytes(copying: secret), label: label, context: context, length: length)
    }

    // MARK: framing

    func frame(_ type: UInt8, _ body: [UInt8], epoch e: UInt64? = nil, secret s: [UInt8]? = nil) -> [UInt8] {
        var w = TLSWriter()
        w.writeUInt16(1); w.writeUInt16(2)
        w.writeOpaque(groupID); w.writeUInt64(e ?? epoch); w.writeUInt8(type)
        w.writeUInt32(ownLeaf); w.writeOpaque(body)
        let mac = SHA256.hash((s ?? secret) + w.bytes)
        return w.bytes + mac
    }

    /// Header fields, sender, body; the MAC checked against the secret of the message's epoch.
    func unframe(_ m: [UInt8]) throws -> (epoch: UInt64, type: UInt8, sender: UInt32, body: [UInt8]) {
        guard m.count > 32 else { throw MLSError(.truncated) }
        let content = Array(m[..<(m.count - 32)]), mac = Array(m[(m.count - 32)...])
        var r = TLSReader(content)
        _ = try r.readUInt16(); _ = try r.readUInt16()
        guard try r.readOpaque() == groupID else { throw MLSError(.invalidValue, "group") }
        let e = try r.readUInt64(), type = try r.readUInt8(), sender = try r.readUInt32(), body = try r.readOpaque()
        try r.finish()
        guard let s = e == epoch ? secret : pastSecrets[e] else { throw MLSError(.invalidValue, "epoch \(e) unknown") }
        guard SHA256.hash(s + content) == mac else { throw MLSError(.decryptionFailed, "toy MAC") }
        return (e, type, sender, body)
    }

    mutating func sealApplication(_ data: [UInt8], rng: RandomSource) throws -> [UInt8] { frame(1, data) }

    mutating func proposeSelfRemove(rng: RandomSource) throws -> [UInt8] {
        // Like MLS, the sender keeps its own proposal for the commit that will include it.
        if !selfRemoves.contains(ownLeaf) { selfRemoves.append(ownLeaf) }
        return frame(2, [0x0a])
    }

    // MARK: commits

    func makeCommit(_ request: MarmotCommitRequest, rng: RandomSource) throws -> (pending: Pending, message: [UInt8], welcome: [UInt8]?) {
        var w = TLSWriter()
        w.writeVector { v in for kp in request.adds { v.writeOpaque(kp.tlsSerialized) } }
        w.writeVector { v in for id in request.removes { v.writeOpaque(id) } }
        w.writeOpaque(request.groupData?.tlsSerialized ?? [])
        w.writeUInt8(request.includeSelfRemoves ? 1 : 0)
        w.writeBytes(rng.bytes(32))
        let message = frame(3, w.bytes)
        var next = self
        let info = try next.apply(message, body: w.bytes, sender: ownLeaf)
        _ = info
        var welcome: [UInt8]?
        if !request.adds.isEmpty {
            var ww = TLSWriter()
            ww.writeUInt16(1); ww.writeUInt16(3)
            ww.writeVector { v in for kp in request.adds { v.writeOpaque(kp.reference) } }
            ww.writeOpaque(next.blob())
            welcome = ww.bytes
        }
        return (Pending(next: next), message, welcome)
    }

    mutating func merge(_ pending: Pending) throws { self = pending.next }

    mutating func processMessage(_ message: [UInt8]) throws -> MarmotEngineEvent {
        let (e, type, sender, body) = try unframe(message)
        guard Int(sender) < members.count, let senderID = members[Int(sender)] else { throw MLSError(.invalidValue, "sender") }
        switch type {
        case 1: return .application(sender: senderID, data: body)
        case 2:
            guard e == epoch else { throw MLSError(.invalidValue, "proposal of another epoch") }
            if !selfRemoves.contains(sender) { selfRemoves.append(sender) }
            return .proposal(sender: senderID, selfRemove: true)
        case 3:
            guard e == epoch, !isRemoved else { throw MLSError(.invalidValue, "commit of another epoch") }
            var next = self
            let info = try next.apply(message, body: body, sender: sender)
            self = next
            return .commit(info)
        default: throw MLSError(.invalidValue, "type")
        }
    }

    mutating func apply(_ message: [UInt8], body: [UInt8], sender: UInt32) throws -> MarmotCommitInfo {
        var r = TLSReader(body)
        let adds = try r.readVector { try KeyPackage(tlsSerialized: try $0.readOpaque()) }
        let removes = try r.readVector { try $0.readOpaque() }
        let data = try r.readOpaque()
        let includeSelfRemoves = try r.readUInt8() == 1
        _ = try r.readBytes(32)
        try r.finish()
        let committer = members[Int(sender)]!
        var removed: [[UInt8]] = []
        for id in removes {
            guard let i = members.firstIndex(where: { $0 == id }) else { throw MLSError(.invalidValue, "remove of a non-member") }
            members[i] = nil; removed.append(id)
        }
        let selfRemoved = includeSelfRemoves ? selfRemoves : []
        for leaf in selfRemoved { if let id = members[Int(leaf)] { removed.append(id); members[Int(leaf)] = nil } }
        let added = adds.map { $0.leafNode.credential.identity }
        members += added.map { Optional($0) }
        if !data.isEmpty {
            groupContextExtensions = groupContextExtensions.map {
                $0.extensionType == MarmotProfile.groupDataExtensionType ? MLSExtension(type: $0.extensionType, data: data) : $0
            }
        }
        pastSecrets[epoch] = secret
        if pastSecrets.count > 5 { pastSecrets[epoch - 5] = nil }
        secret = SHA256.hash(secret + message)
        epoch += 1
        selfRemoves = []
        if members[Int(ownLeaf)] == nil { isRemoved = true; secret = [UInt8](repeating: 0xee, count: 32) }
        let noProposals = adds.isEmpty && removes.isEmpty && data.isEmpty && !includeSelfRemoves
        return MarmotCommitInfo(committer: committer, added: added, removed: removed, extensionsChanged: !data.isEmpty,
                                onlyOwnUpdate: noProposals, onlySelfRemoves: includeSelfRemoves && adds.isEmpty && removes.isEmpty && data.isEmpty && !selfRemoved.isEmpty)
    }

    // MARK: Welcome

    func blob() -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(groupID); w.writeUInt64(epoch); w.writeOpaque(secret)
        w.writeVector { v in for m in members { v.writeOpaque(m ?? []) } }
        w.writeVector { v in for e in groupContextExtensions { e.encode(to: &v) } }
        return w.bytes
    }

    static func keyPackageReferences(inWelcome welcomeMessage: [UInt8]) throws -> [[UInt8]] {
        var r = TLSReader(welcomeMessage)
        guard try r.readUInt16() == 1, try r.readUInt16() == 3 else { throw MLSError(.invalidValue, "not a Welcome") }
        return try r.readVector { try $0.readOpaque() }
    }

    static func join(welcomeMessage: [UInt8], bundle: KeyPackageBundle) throws -> MarmotToyEngine {
        var r = TLSReader(welcomeMessage)
        _ = try r.readUInt16(); _ = try r.readUInt16()
        let refs = try r.readVector { try $0.readOpaque() }
        guard refs.contains(bundle.reference) else { throw MLSError(.invalidValue, "not for this KeyPackage") }
        var b = TLSReader(try r.readOpaque())
        let gid = try b.readOpaque(), e = try b.readUInt64(), s = try b.readOpaque()
        let members: [[UInt8]?] = try b.readVector { let m = try $0.readOpaque(); return m.isEmpty ? nil : m }
        let exts = try b.readVector { try MLSExtension(from: &$0) }
        let me = bundle.keyPackage.leafNode.credential.identity
        guard let leaf = members.lastIndex(where: { $0 == me }) else { throw MLSError(.invalidValue, "not in the tree") }
        return MarmotToyEngine(groupID: gid, epoch: e, secret: s, members: members, ownLeaf: UInt32(leaf), groupContextExtensions: exts)
    }

    func serialized() -> SecureBytes {
        var w = TLSWriter()
        w.writeOpaque(blob()); w.writeUInt32(ownLeaf); w.writeUInt8(isRemoved ? 1 : 0)
        w.writeVector { v in for l in selfRemoves { v.writeUInt32(l) } }
        w.writeVector { v in for (e, s) in pastSecrets.sorted(by: { $0.key < $1.key }) { v.writeUInt64(e); v.writeOpaque(s) } }
        return SecureBytes(copying: w.bytes)
    }

    init(groupID: [UInt8], epoch: UInt64, secret: [UInt8], members: [[UInt8]?], ownLeaf: UInt32, groupContextExtensions: [MLSExtension]) {
        self.groupID = groupID; self.epoch = epoch; self.secret = secret; self.members = members
        self.ownLeaf = ownLeaf; self.groupContextExtensions = groupContextExtensions
    }

    init(serialized data: SecureBytes) throws {
        var r = TLSReader(data.exportBytes())
        var b = TLSReader(try r.readOpaque())
        let gid = try b.readOpaque(), e = try b.readUInt64(), s = try b.readOpaque()
        let members: [[UInt8]?] = try b.readVector { let m = try $0.readOpaque(); return m.isEmpty ? nil : m }
        let exts = try b.readVector { try MLSExtension(from: &$0) }
        self.init(groupID: gid, epoch: e, secret: s, members: members, ownLeaf: try r.readUInt32(), groupContextExtensions: exts)
        isRemoved = try r.readUInt8() == 1
        selfRemoves = try r.readVector { try $0.readUInt32() }
        for (k, v) in try r.readVector({ (try $0.readUInt64(), try $0.readOpaque()) }) { pastSecrets[k] = v }
        try r.finish()
    }
}
