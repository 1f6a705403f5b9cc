import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

extension StoreError {
    /// Maps any error raised inside the store to a ``StoreError``; errors thrown by a caller's
    /// own code inside `write` pass through unchanged.
    /// An I/O error while `directory`'s file system has no space left is reported as
    /// ``StoreError/Code/full``: SQLite says `SQLITE_FULL` only for some writes (growing the
    /// `-shm` file, for one, fails as `SQLITE_IOERR_SHMSIZE`).
    static func from(_ error: any Error, opening: Bool = false, directory: String? = nil) -> any Error {
        if error is StoreError { return error }
        guard let db = error as? DatabaseError else { return error }
        let detail = "sqlite \(db.extendedResultCode.rawValue)"
        switch db.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return StoreError(.corrupt, detail)
        case .SQLITE_BUSY, .SQLITE_LOCKED: return StoreError(.busy, detail)
        case .SQLITE_CONSTRAINT: return StoreError(.constraint, detail)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: return StoreError(.openFailed, detail)
        case .SQLITE_FULL:
            return StoreError(.full, fullMessage(detail))
        case .SQLITE_IOERR where db.extendedResultCode == .SQLITE_IOERR_SHMSIZE || directory.map(noSpaceLeft) == true:
            return StoreError(.full, fullMessage(detail))
        case .SQLITE_IOERR:
            return StoreError(.io, "the disk could not be read or written; nothing of this change was written (\(detail))")
        case .SQLITE_READONLY:
            return StoreError(.io, "the home is read-only: this command needs to write (\(detail))")
        default: return StoreError(opening ? .openFailed : .io, detail)
        }
    }

    private static func fullMessage(_ detail: String) -> String {
        "the disk holding the home is full; nothing of this change was written (free some space and run it again) (\(detail))"
    }

    /// Whether the file system holding `directory` has no block left for this user.
    private static func noSpaceLeft(_ directory: String) -> Bool {
        var fs = statvfs()
        return statvfs(directory.isEmpty ? "." : directory, &fs) == 0 && fs.f_bavail == 0
    }
}
