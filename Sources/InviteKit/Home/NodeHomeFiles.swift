import Foundation

/// The inbox's file operations: atomic private writes (a reader sees no file or the whole file),
/// reads, and the mark a long request's heartbeat refreshes.
enum NodeHomeFiles {
    /// Writes `bytes` to a new temporary file next to `path` (mode 0600), syncs it and renames it
    /// over `path`.
    static func write(_ bytes: [UInt8], to path: String) throws(InviteKitError) {
        let dir = (path as NSString).deletingLastPathComponent
        var template = Array((dir + "/." + (path as NSString).lastPathComponent + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a file in \(dir)") }
        let tmp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var offset = 0
        var ok = fchmod(fd, 0o600) == 0
        while ok && offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { ok = false } else { offset += n }
        }
        ok = ok && fsync(fd) == 0
        ok = close(fd) == 0 && ok
        ok = ok && rename(tmp, path) == 0
        guard ok else {
            let error = failure("cannot write \(path)")
            unlink(tmp)
            throw error
        }
    }

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Whether `path` was modified within `interval`.
    static func isFresh(_ path: String, within interval: Duration) -> Bool {
        guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return false }
        return Date().timeIntervalSince(modified) < Double(interval.components.seconds)
    }

    /// Creates the private inbox directory (0700); refuses one writable by group or others, or
    /// not a directory (anyone who can write it could plant requests).
    static func preparePrivateDirectory(_ dir: String) throws(InviteKitError) {
        if mkdir(dir, 0o700) != 0 && errno != EEXIST { throw failure("cannot create the home's inbox \(dir)") }
        var st = stat()
        guard lstat(dir, &st) == 0 else { throw failure("cannot read the home's inbox \(dir)") }
        let fix = " (the node keeps other processes' requests there; move it aside and serve recreates it)"
        guard st.st_mode & S_IFMT == S_IFDIR else {
            throw InviteKitError(.homeUnavailable, underlyingCode: "inbox_unusable", context: "refusing the home's inbox \(dir): not a directory" + fix)
        }
        if st.st_mode & 0o022 != 0 {
            throw InviteKitError(.homeUnavailable, underlyingCode: "inbox_unusable",
                                 context: "refusing the home's inbox \(dir): it is writable by group or others (mode \(String(st.st_mode & 0o7777, radix: 8))); use a private directory (chmod 700)" + fix)
        }
    }

    private static func failure(_ what: String) -> InviteKitError {
        InviteKitError(.storageUnavailable, underlyingCode: "inbox_io", context: "\(what): \(String(cString: strerror(errno)))")
    }
}
