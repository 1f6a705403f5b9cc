import GRDB

extension StoreError {
    /// Maps any error raised inside the store to a ``StoreError``; errors thrown by a caller's
    /// own code inside `write` pass through unchanged.
    static func from(_ error: any Error, opening: Bool = false) -> any Error {
        if error is StoreError { return error }
        guard let db = error as? DatabaseError else { return error }
        let detail = "sqlite \(db.extendedResultCode.rawValue)"
        switch db.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return StoreError(.corrupt, detail)
        case .SQLITE_BUSY, .SQLITE_LOCKED: return StoreError(.busy, detail)
        case .SQLITE_CONSTRAINT: return StoreError(.constraint, detail)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: return StoreError(.openFailed, detail)
        default: return StoreError(opening ? .openFailed : .io, detail)
        }
    }
}
