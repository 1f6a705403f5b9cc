import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system helpers with private permissions: directories 0700, files 0600.
enum StoreFiles {
    /// Creates `path` as an empty 0600 file if it does not exist, so SQLite's own files
    /// (it gives `-wal` and `-shm` the database file's mode) are private from the first byte.
    static func createPrivateFile(_ path: String) throws {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError(.homeUnavailable, "cannot create \(lastPathComponent(path)) (errno \(errno))") }
        close(fd)
    }

    /// Creates `path` (and parents) with mode 0700; refuses an existing directory that others can read.
    static func createPrivateDirectory(_ path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw StoreError(.homeUnavailable, "home is not a directory") }
            if st.st_mode & 0o077 != 0 { _ = chmod(path, 0o700) }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError(.homeUnavailable, "cannot create the home directory")
        }
        _ = chmod(path, 0o700)
    }

    static func mode(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_mode & 0o777)
    }

    static func lastPathComponent(_ path: String) -> String { (path as NSString).lastPathComponent }
}
