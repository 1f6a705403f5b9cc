import Foundation
import InviteKitCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The node's secret key: 32 raw bytes in `<home>/identity.key`, mode 0600, outside the database.
///
/// Why a file and not a row: the identity key is the one secret that lives for years. SQLite
/// copies pages into the WAL, the page cache and (on checkpoints and VACUUM) new places on disk
/// that no code here can wipe, and a database gets copied for backups and bug reports. A 32-byte
/// file is written once, read once into ``SecureBytes``, and can be backed up or moved to a
/// keychain on its own. The database holds only the public key, and checks the file matches it.
package enum IdentityKeyFile {
    package static let length = 32

    /// Writes `secret` to `path` with mode 0600, atomically (temp file, fsync, rename).
    /// Refuses to overwrite an existing key.
    package static func write(_ secret: SecureBytes, to path: String) throws {
        guard secret.count == length else { throw StoreError(.identityUnavailable, "a secret key is \(length) bytes") }
        if FileManager.default.fileExists(atPath: path) { throw StoreError(.identityExists, "an identity already exists in this home") }
        let temp = path + ".tmp"
        unlink(temp)
        let fd = open(temp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw StoreError(.homeUnavailable, "cannot create the key file (errno \(errno))") }
        let written = secret.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == length, synced == 0 else {
            unlink(temp)
            throw StoreError(.io, "cannot write the key file")
        }
        guard rename(temp, path) == 0 else { unlink(temp); throw StoreError(.io, "cannot install the key file") }
    }

    /// Reads the key into ``SecureBytes``. Refuses a file others can read or one of the wrong size.
    package static func read(from path: String) throws -> SecureBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw StoreError(.identityUnavailable, "no identity key in this home") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw StoreError(.identityUnavailable, "cannot stat the key file") }
        guard st.st_mode & 0o077 == 0 else { throw StoreError(.identityUnavailable, "the key file is readable by others (chmod 600 it)") }
        guard st.st_size == off_t(length) else { throw StoreError(.identityUnavailable, "the key file is not \(length) bytes") }
        var ok = false
        let secret = SecureBytes(count: length) { buffer in
            ok = Glibc.read(fd, buffer.baseAddress, length) == length
        }
        guard ok else { throw StoreError(.identityUnavailable, "cannot read the key file") }
        return secret
    }
}
