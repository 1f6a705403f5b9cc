import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension StoreHome {
    /// The schema version this InviteKit writes.
    public static var currentSchemaVersion: Int { Schema.currentVersion }

    /// One line per path of the home for `invitekit doctor`: its mode (`nil` when absent) and
    /// what is wrong with it, if anything (a link, the wrong owner or mode). Reads only.
    public func fileReport() -> [(name: String, mode: Int?, problem: String?)] {
        var rows: [(name: String, mode: Int?, problem: String?)] = []
        var st = stat()
        if stat(directory, &st) == 0 {
            rows.append((directory, Int(st.st_mode & 0o7777), StoreFiles.directoryProblem(directory, st)))
        } else {
            rows.append((directory, nil, "missing (run `invitekit init`)"))
            return rows
        }
        for path in [identityKeyPath, databasePath, databasePath + "-wal", databasePath + "-shm", lockPath] {
            let name = StoreFiles.lastPathComponent(path)
            guard lstat(path, &st) == 0 else { rows.append((name, nil, nil)); continue }
            let mode = Int(st.st_mode & 0o7777)
            let problem: String?
            if (st.st_mode & S_IFMT) == S_IFLNK {
                problem = "a symbolic link: remove it (InviteKit refuses links inside its home)"
            } else if (st.st_mode & S_IFMT) != S_IFREG {
                problem = "not a regular file"
            } else if st.st_uid != geteuid() {
                problem = "owned by uid \(st.st_uid), not by you"
            } else if mode & 0o077 != 0 {
                problem = "readable or writable by others (run `chmod 600 \(path)`)"
            } else {
                problem = nil
            }
            rows.append((name, mode, problem))
        }
        return rows
    }
}
