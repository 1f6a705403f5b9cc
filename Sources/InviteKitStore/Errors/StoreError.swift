import InviteKitCrypto

/// A failure of the durable store. `code` is stable; `detail` never holds secret material.
public typealias StoreError = CodedFailure<StoreErrorCodes.Code>

/// The namespace of ``StoreError``'s codes.
public enum StoreErrorCodes {
    public enum Code: String, FailureCode {
        /// The database file could not be opened or is not a database.
        case openFailed = "store_open_failed"
        /// The file is damaged (SQLITE_CORRUPT / SQLITE_NOTADB).
        case corrupt = "store_corrupt"
        /// The schema was written by a newer InviteKit than this one.
        case schemaTooNew = "store_schema_too_new"
        /// A migration failed; its transaction was rolled back.
        case migrationFailed = "store_migration_failed"
        /// Another process holds the home's lock (a second node on the same home).
        case locked = "store_locked"
        /// The database stayed busy past the busy timeout.
        case busy = "store_busy"
        /// A constraint was violated (a duplicate that the caller did not expect, a missing parent).
        case constraint = "store_constraint"
        /// A row the operation needs does not exist.
        case notFound = "store_not_found"
        /// A stored value could not be decoded.
        case invalidRecord = "store_invalid_record"
        /// The home directory or a file in it could not be created or has unsafe permissions.
        case homeUnavailable = "store_home_unavailable"
        /// The identity key file is missing, unreadable or malformed.
        case identityUnavailable = "store_identity_unavailable"
        /// The identity already exists (init twice).
        case identityExists = "store_identity_exists"
        /// An illegal state change was asked for (for example acknowledging an unknown delivery).
        case invalidTransition = "store_invalid_transition"
        /// The disk (or the file system holding the home) is full (SQLITE_FULL). The transaction
        /// was rolled back: nothing of it was written.
        case full = "store_full"
        /// The disk could not be read or written (SQLITE_IOERR), the home is read-only
        /// (SQLITE_READONLY), or another SQLite failure.
        case io = "store_io"
    }
}
