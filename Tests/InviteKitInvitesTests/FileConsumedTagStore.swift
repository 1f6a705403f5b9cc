import Foundation
import InviteKitCrypto
import InviteKitInvites

/// A ``ConsumedTagStore`` in an append-only file that survives restarts and is shared safely
/// between processes.
///
/// Each used key is one line: the lowercase hex SHA-256 of the key (fixed length, no tag or
/// creator in clear at rest). `consume` takes an exclusive `flock(2)` on the file, catches up
/// on lines appended since this instance last looked, appends the line when absent, `fsync`s,
/// and releases the lock: the read-check-append is one critical section for every process and
/// thread (each call opens its own descriptor, and `flock` locks belong to open file
/// descriptions). Because the file only grows, each instance reads every byte once; a file
/// that shrank (replaced by hand) is read again from the start. A line torn by a crash is
/// ignored and the next append starts on a fresh line.
final class FileConsumedTagStore: ConsumedTagStore, @unchecked Sendable {
    /// The store file; created (mode 0600) on first use.
    let path: String
    /// Tests only: microseconds to wait between reading the file and appending, so that races
    /// are wide enough to lose if the lock were missing.
    var raceWindowForTesting: UInt32 = 0

    private let lock = NSLock()
    private var known = Set<String>()
    private var readOffset: off_t = 0
    private var endsWithNewline = true
    private var partialLine = [UInt8]()

    /// A store in the file at `path`. Nothing is opened until the first call.
    init(path: String) {
        self.path = path
    }

    /// Atomic across threads and processes (exclusive `flock` around read-check-append).
    func consume(_ key: String) throws(InviteError) -> Bool {
        let line = Self.lineFor(key)
        return try withLockedFile { fd throws(InviteError) -> Bool in
            if known.contains(line) { return false }
            if raceWindowForTesting > 0 { usleep(raceWindowForTesting) }
            var record = Array(line.utf8) + [0x0A]
            if !endsWithNewline { record.insert(0x0A, at: 0) }
            let end = lseek(fd, 0, SEEK_END)
            guard end >= 0 else { throw InviteError(.storeUnavailable, "seek failed") }
            let written = record.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == record.count else { throw InviteError(.storeUnavailable, "short write") }
            guard fsync(fd) == 0 else { throw InviteError(.storeUnavailable, "fsync failed") }
            known.insert(line)
            readOffset = end + off_t(record.count)
            endsWithNewline = true
            partialLine = []
            return true
        }
    }

    /// Reads under the same lock.
    func isConsumed(_ key: String) throws(InviteError) -> Bool {
        let line = Self.lineFor(key)
        return try withLockedFile { _ throws(InviteError) -> Bool in known.contains(line) }
    }

    static func lineFor(_ key: String) -> String { Hex.encode(SHA256.hash(Array(key.utf8))) }

    /// Opens and locks the file, brings ``known`` up to date, and runs `body` under both the
    /// instance lock and the file lock.
    private func withLockedFile<R>(_ body: (Int32) throws(InviteError) -> R) throws(InviteError) -> R {
        lock.lock()
        defer { lock.unlock() }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw InviteError(.storeUnavailable, "cannot open the store (errno \(errno))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw InviteError(.storeUnavailable, "cannot lock the store (errno \(errno))") }
        }
        defer { _ = flock(fd, LOCK_UN) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InviteError(.storeUnavailable, "fstat failed (errno \(errno))") }
        if st.st_size < readOffset {
            known = []; readOffset = 0; endsWithNewline = true; partialLine = []
        }
        guard lseek(fd, readOffset, SEEK_SET) >= 0 else { throw InviteError(.storeUnavailable, "seek failed") }
        var buf = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InviteError(.storeUnavailable, "read failed (errno \(errno))")
            }
            if n == 0 { break }
            readOffset += off_t(n)
            for b in buf[0..<n] {
                if b == 0x0A {
                    if partialLine.count == 64 { known.insert(String(decoding: partialLine, as: UTF8.self)) }
                    partialLine.removeAll(keepingCapacity: true)
                } else if partialLine.count <= 64 {
                    partialLine.append(b)
                }
            }
            endsWithNewline = buf[n - 1] == 0x0A
        }
        return try body(fd)
    }
}
