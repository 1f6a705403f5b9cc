import Foundation
import InviteKit
import InviteKitMLS

/// The `--state FILE` of `invitekit mls` (PROTOCOL.md §5.10; docs/cli.md §4): one member's Marmot group,
/// between `add`/`remove`/`update` and `confirm` its pending commit, the group events waiting
/// for a key and the events seen, each kept in its own bounded section so that nothing an
/// outsider sends, and no number of messages read, grows the rest.
///
/// `"IKGS"; uint8 version = 3; opaque marmot_group<V>; opaque pending_commit<V>;
/// opaque buffered_events<V>; opaque seen_log<V>;` (``MarmotGroup/serialized()``,
/// ``MarmotPendingCommit/serialized()`` with empty meaning none, ``MarmotEventBuffer/serialized()``,
/// ``MarmotSeenLog/serialized()``). Version 2 (no seen section; the seen ids and hashes sat
/// inside `marmot_group`) and version 1 (no buffered section either; the events sat inside
/// `marmot_group` too) are read and rewritten as version 3. It holds the group's
/// secrets but never the Nostr identity key. Written 0600 through ``SafeFile`` (temporary file,
/// fsync, rename); read only from a regular file that group and others cannot access. Every
/// command's read-modify-write holds ``locked(_:wait:_:)``.
struct GroupStateFile {
    typealias Group = MarmotGroup<MLSGroupState>
    typealias Pending = MarmotPendingCommit<MLSGroupState>

    /// `"IKGS"`, version 3; versions 1 and 2 are read and rewritten as 3 on the next save.
    static let envelope = VersionedEnvelope("group state file", version: 3, readable: 1...3, magic: Array("IKGS".utf8))
    /// Largest state file read or written: a 10,000-member group with its retained epochs fits.
    static let maxBytes = 256 * 1024 * 1024
    /// Default bound on the wait for another command's lock (seconds).
    static let defaultLockWait = 10.0

    var group: Group
    var pending: Pending?

    static func load(_ path: String) throws -> GroupStateFile {
        var bytes = try readPrivate(path)
        defer { SecureBytes.wipe(&bytes) }
        do {
            let sections = try envelope.read(bytes) { v, r in
                (group: try r.readOpaque(), pending: try r.readOpaque(), buffer: v >= 2 ? try r.readOpaque() : nil,
                 seen: v >= 3 ? try r.readOpaque() : nil)
            }
            var groupBytes = sections.group, pendingBytes = sections.pending
            defer { SecureBytes.wipe(&groupBytes); SecureBytes.wipe(&pendingBytes) }
            let bufferBytes = sections.buffer
            var group = try Group(serialized: SecureBytes(copying: groupBytes))
            if let bufferBytes { group.buffer = try MarmotEventBuffer(serialized: bufferBytes) }
            // An older file's group brought its seen entries inside; a version-3 file has them apart.
            if let seenBytes = sections.seen { group.seenLog = try MarmotSeenLog(serialized: seenBytes) }
            let pending = pendingBytes.isEmpty ? nil : try Pending(serialized: SecureBytes(copying: pendingBytes))
            return GroupStateFile(group: group, pending: pending)
        } catch let e as MLSError {
            throw CLIFailure("cannot read the group state \(path): \(CLIMessages.describe(e))")
        }
    }

    /// Replaces the file with this state, whole or not at all; on failure the file is as it was
    /// and the error is thrown.
    func save(_ path: String) throws {
        var bytes = Self.envelope.write(capacity: 8192) { w in
            group.serialized().withUnsafeBytes { w.writeOpaque($0) }
            if let pending { pending.serialized().withUnsafeBytes { w.writeOpaque($0) } } else { w.writeOpaque([UInt8]()) }
            w.writeOpaque(group.buffer.serialized())
            w.writeOpaque(group.seenLog.serialized())
        }
        defer { SecureBytes.wipe(&bytes) }
        guard bytes.count <= Self.maxBytes else {
            throw CLIFailure("refusing to write the group state \(path): \(bytes.count) bytes is over \(Self.maxBytes)")
        }
        try SafeFile.write(bytes, to: path, mode: 0o600)
    }

    /// Runs `body` holding an exclusive `flock` on `<path>.lock` (created 0600 beside the state,
    /// never through a symlink, and left in place), so that two commands on one state never both
    /// read it and the last writer's update wins over the other's. Another holder is waited for
    /// at most `wait` seconds, then the command fails naming the lock.
    static func locked<T>(_ path: String, wait: Double = defaultLockWait, _ body: () throws -> T) throws -> T {
        let lockPath = path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else { throw CLIFailure("cannot open the lock \(lockPath) of the group state: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid() else {
            throw CLIFailure("refusing the lock \(lockPath): not a regular file owned by this user")
        }
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(wait, 3600)) * 1e9)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            guard e == EWOULDBLOCK || e == EINTR else {
                throw CLIFailure("cannot lock the group state \(path): \(String(cString: strerror(e)))")
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw CLIFailure("the group state \(path) is in use by another command (lock \(lockPath) held for more than \(wait) s); try again", exitCode: 75)
            }
            usleep(5_000)
        }
        return try body()
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
            guard n > 0 else { SecureBytes.wipe(&out); throw CLIFailure("cannot read the group state \(path)") }
            offset += n
        }
        return out
    }
}
