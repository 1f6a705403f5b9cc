import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system helpers with private permissions: directories 0700, files 0600 (docs/storage.md §5).
/// Files inside the home are opened with `O_NOFOLLOW | O_CLOEXEC`: a symbolic link planted there
/// is refused, never followed, truncated or chmod-ed. Only the home path itself may be a link.
enum StoreFiles {
    /// Prepares the database file: creates it as an empty 0600 file if missing (SQLite gives
    /// `-wal` and `-shm` the database file's mode, so they are private from the first byte).
    /// Returns `false` when the file exists but the home is read-only (`EROFS`, `EACCES`): the
    /// caller opens it read-only.
    static func prepareDatabaseFile(_ path: String) throws -> Bool {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd >= 0 {
            defer { close(fd) }
            try requireRegular(fd, path)
            return true
        }
        let e = errno
        if e == ELOOP { throw symlinkRefused(path) }
        if e == EROFS || e == EACCES {
            let ro = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if ro >= 0 {
                defer { close(ro) }
                try requireRegular(ro, path)
                return false
            }
        }
        throw StoreError(.homeUnavailable, "cannot create \(lastPathComponent(path)) (\(describe(e)))")
    }

    /// Opens an existing or new file in the home for reading and writing, never through a link.
    static func openPrivate(_ path: String, flags: Int32 = O_CREAT | O_RDWR) throws -> Int32 {
        let fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            let e = errno
            if e == ELOOP { throw symlinkRefused(path) }
            if e == EROFS || e == EACCES {
                throw StoreError(.homeUnavailable, "the home is read-only (\(describe(e))): only read commands (id, group list, members, read, doctor) work here")
            }
            throw StoreError(.homeUnavailable, "cannot open \(lastPathComponent(path)) (\(describe(e)))")
        }
        do { try requireRegular(fd, path) } catch { close(fd); throw error }
        return fd
    }

    /// Creates `path` with mode 0700 (parents as needed), or checks an existing one: it must be a
    /// directory owned by this user that neither group nor others can write. Nothing is chmod-ed:
    /// a shared directory (`/tmp`, mode 1777) keeps its mode and is refused with the fix.
    static func createPrivateDirectory(_ path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            try checkDirectory(path, st)
            return
        }
        let parent = AbsolutePath.parent(of: path)
        if !FileManager.default.fileExists(atPath: parent) {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError(.homeUnavailable, "cannot create \(parent)")
            }
        }
        // mkdir never follows a link at the last component and the umask can only clear bits.
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw StoreError(.homeUnavailable, "cannot create the home directory (\(describe(errno)))")
        }
        guard stat(path, &st) == 0 else { throw StoreError(.homeUnavailable, "cannot stat the home directory (\(describe(errno)))") }
        try checkDirectory(path, st)
    }

    /// Why an existing home directory is unsafe, with the fix; `nil` when it is fine.
    static func directoryProblem(_ path: String, _ st: stat) -> String? {
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return "\(path) is not a directory" }
        if st.st_uid != geteuid() {
            return "\(path) is owned by uid \(st.st_uid), not by you (uid \(geteuid())): use a home of your own (--home DIR)"
        }
        if st.st_mode & 0o022 != 0 {
            let mode = String(st.st_mode & 0o7777, radix: 8)
            return "\(path) is writable by group or others (mode \(mode)): use a new directory (--home DIR, created 0700), or run `chmod 700 \(path)` if it is yours alone"
        }
        return nil
    }

    private static func checkDirectory(_ path: String, _ st: stat) throws {
        if let problem = directoryProblem(path, st) { throw StoreError(.homeUnavailable, problem) }
    }

    private static func requireRegular(_ fd: Int32, _ path: String) throws {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw StoreError(.homeUnavailable, "\(lastPathComponent(path)) is not a regular file")
        }
        guard st.st_uid == geteuid() else {
            throw StoreError(.homeUnavailable, "\(lastPathComponent(path)) is owned by uid \(st.st_uid), not by you")
        }
    }

    static func symlinkRefused(_ path: String) -> StoreError {
        StoreError(.homeUnavailable, "\(path) is a symbolic link; InviteKit does not follow links inside its home (remove it)")
    }

    /// The file's permission bits, not following a link.
    static func mode(_ path: String) -> Int? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return Int(st.st_mode & 0o7777)
    }

    static func describe(_ e: Int32) -> String {
        "\(String(cString: strerror(e))), errno \(e)"
    }

    static func lastPathComponent(_ path: String) -> String { (path as NSString).lastPathComponent }
}
