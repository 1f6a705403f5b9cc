import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on `<home>/lock`, held for the life of the node, so a second node on the
/// same home refuses to start instead of interleaving its writes and replies with the first.
/// The kernel drops the lock when the process dies (even by `kill -9`), so a crash never leaves
/// a stale lock behind.
package final class HomeLock: Sendable {
    private let fd: Int32
    package let path: String

    /// Takes the lock without waiting; throws ``StoreError/Code/locked`` if another process holds it.
    /// A symbolic link at `path` is refused (`O_NOFOLLOW`): the pid written below must never
    /// land in a file the link points to.
    package init(path: String) throws {
        let fd = try StoreFiles.openPrivate(path)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let e = errno
            close(fd)
            throw StoreError(.locked, e == EWOULDBLOCK ? "another invitekit node is running on this home" : "flock failed (errno \(e))")
        }
        // The holder's pid, for the person reading the error (and `doctor`); the flock is what counts.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        self.fd = fd
        self.path = path
    }

    /// Whether another process holds the lock at `path`, and the pid it wrote; `nil` when no
    /// lock file exists. Never creates or writes the file.
    package static func holder(path: String) -> (held: Bool, pid: String)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let pid = String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        // A shared lock is enough to probe: it fails while anyone holds the exclusive one.
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return (true, pid) }
        flock(fd, LOCK_UN)
        return (false, pid)
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
