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
public final class HomeLock: Sendable {
    private let fd: Int32
    public let path: String

    /// Takes the lock without waiting; throws ``StoreError/Code/locked`` if another process holds it.
    public init(path: String) throws {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError(.homeUnavailable, "cannot open the lock file (errno \(errno))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let e = errno
            close(fd)
            throw StoreError(.locked, e == EWOULDBLOCK ? "another invitekit node is running on this home" : "flock failed (errno \(e))")
        }
        // The holder's pid, for the person reading the error; the flock is what counts.
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        self.fd = fd
        self.path = path
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
