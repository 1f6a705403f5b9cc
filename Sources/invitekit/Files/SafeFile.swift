import Foundation

/// The one way the CLI writes a file (docs/cli.md §3, "Files"):
/// - a path that exists and is not a regular file (symlink, FIFO, device, directory) is refused,
///   so `--png /dev/sda` or a planted symlink cannot redirect the write;
/// - the bytes go to a new temporary file in the same directory (`O_CREAT|O_EXCL`, never
///   following a link), which is flushed with `fsync` and then renamed over the path, so a
///   reader sees the old file or the whole new one, never a torn one;
/// - the file gets `mode` (0600 for anything secret) regardless of the umask.
enum SafeFile {
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws {
        guard !path.isEmpty else { throw CLIFailure("the output path is empty") }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFREG else {
                throw CLIFailure("refusing to write \(path): it exists and is not a regular file")
            }
        } else if errno != ENOENT {
            throw CLIFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var template = Array((dir + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CLIFailure("cannot create a temporary file in \(dir): \(String(cString: strerror(errno)))") }
        let tmp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            if !ok { unlink(tmp) }
        }
        guard fchmod(fd, mode) == 0 else { close(fd); throw CLIFailure("cannot set the mode of \(tmp)") }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let reason = String(cString: strerror(n < 0 ? errno : EIO))
                close(fd)
                throw CLIFailure("cannot write \(path): \(reason)")
            }
            offset += n
        }
        guard fsync(fd) == 0 else { let e = errno; close(fd); throw CLIFailure("cannot write \(path): \(String(cString: strerror(e)))") }
        guard close(fd) == 0 else { throw CLIFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
        guard rename(tmp, path) == 0 else { throw CLIFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
        ok = true
        // The rename is durable once the directory is synced; a failure here loses nothing.
        let dfd = open(dir, O_RDONLY)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }

    /// Checks a directory that will hold secrets: it must not be writable by group or others,
    /// since anyone who can write it can replace or plant key files (docs/cli.md §3). `role`
    /// names where the path came from, as the user knows it (`--store`, "the home's inbox"): a
    /// message must name what the user did, not an option of another command.
    static func requirePrivateDirectory(_ path: String, role: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }  // created 0700 by the store
        guard st.st_mode & S_IFMT == S_IFDIR else { throw CLIFailure("refusing \(role) \(path): not a directory") }
        if st.st_mode & 0o022 != 0 {
            throw CLIFailure("refusing \(role) \(path): it is writable by group or others (mode \(String(st.st_mode & 0o7777, radix: 8))); use a private directory (chmod 700)")
        }
    }
}
