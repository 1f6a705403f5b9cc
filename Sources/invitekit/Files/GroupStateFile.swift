import Foundation
import InviteKit
import InviteKitMLS

/// The `--state FILE` of `invitekit group` (PROTOCOL.md §5, "Group state file"): one member's
/// Marmot group and, between `add`/`remove`/`update` and `confirm`, its pending commit.
///
/// `"IKGS"; uint8 version = 1; opaque marmot_group<V>; opaque pending_commit<V>;` (the two
/// opaques are ``MarmotGroup/serialized()`` and ``MarmotPendingCommit/serialized()``; an empty
/// pending commit means none). It holds the group's secrets but never the Nostr identity key.
/// Written 0600 through ``SafeFile`` (temporary file, fsync, rename); read only from a regular
/// file that group and others cannot access.
struct GroupStateFile {
    typealias Group = MarmotGroup<MLSGroupState>
    typealias Pending = MarmotPendingCommit<MLSGroupState>

    static let magic: [UInt8] = Array("IKGS".utf8)
    static let version: UInt8 = 1
    /// Largest state file read: a 10,000-member group with its retained epochs fits.
    static let maxBytes = 256 * 1024 * 1024

    var group: Group
    var pending: Pending?

    static func load(_ path: String) throws -> GroupStateFile {
        var bytes = try readPrivate(path)
        defer { GroupStateFile.wipe(&bytes) }
        do {
            var r = TLSReader(bytes)
            guard try r.readBytes(4) == magic else { throw MLSError(.invalidValue, "not an InviteKit group state file") }
            let v = try r.readUInt8()
            guard v == version else { throw MLSError(.invalidValue, "group state file version \(v) is not supported (expected \(version))") }
            var groupBytes = try r.readOpaque()
            defer { GroupStateFile.wipe(&groupBytes) }
            var pendingBytes = try r.readOpaque()
            defer { GroupStateFile.wipe(&pendingBytes) }
            try r.finish()
            let group = try Group(serialized: SecureBytes(copying: groupBytes))
            let pending = pendingBytes.isEmpty ? nil : try Pending(serialized: SecureBytes(copying: pendingBytes))
            return GroupStateFile(group: group, pending: pending)
        } catch let e as MLSError {
            throw CLIFailure("cannot read the group state \(path): \(CLIMessages.describe(e))")
        }
    }

    func save(_ path: String) throws {
        var w = TLSWriter(capacity: 8192)
        w.writeBytes(Self.magic)
        w.writeUInt8(Self.version)
        group.serialized().withUnsafeBytes { w.writeOpaque($0) }
        if let pending { pending.serialized().withUnsafeBytes { w.writeOpaque($0) } } else { w.writeOpaque([UInt8]()) }
        var bytes = w.takeBytes()
        defer { GroupStateFile.wipe(&bytes) }
        try SafeFile.write(bytes, to: path, mode: 0o600)
    }

    /// Refuses to create over an existing path: a group state is never silently replaced.
    static func requireAbsent(_ path: String) throws {
        var st = stat()
        if lstat(path, &st) == 0 { throw CLIFailure("refusing to create \(path): it already exists", exitCode: 1) }
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    private static func readPrivate(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw CLIFailure("cannot open the group state \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { throw CLIFailure("the group state \(path) is not a regular file") }
        guard st.st_mode & 0o077 == 0 else {
            throw CLIFailure("refusing the group state \(path): group or others can access it (mode \(String(st.st_mode & 0o777, radix: 8))); run chmod 600")
        }
        guard st.st_size <= maxBytes else { throw CLIFailure("the group state \(path) is larger than \(maxBytes) bytes") }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var offset = 0
        while offset < out.count {
            let n = out[offset...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { GroupStateFile.wipe(&out); throw CLIFailure("cannot read the group state \(path)") }
            offset += n
        }
        return out
    }

    /// Overwrites a buffer that held secret state before it is freed.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            _ = memset(base, 0, raw.count)
        }
    }
}
