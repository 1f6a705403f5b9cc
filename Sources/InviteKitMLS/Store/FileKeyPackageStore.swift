import Foundation
import InviteKitCrypto

/// A ``KeyPackageStore`` under a directory: one file `<KeyPackageRef hex>.keypackage` per bundle,
/// holding ``KeyPackageBundle/privateSerialization()``, created with mode 0600 in a 0700 directory
/// and replaced atomically. Retired packages are overwritten with zeros, then deleted.
public final class FileKeyPackageStore: KeyPackageStore, @unchecked Sendable {
    // Safe: `directory` never changes; `lock` serialises every file operation of this instance.
    public let directory: URL
    private let lock = NSLock()

    public init(directory: URL) throws {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw MLSError(.storage, "cannot create the store directory")
        }
    }

    private func url(_ ref: [UInt8]) -> URL { directory.appendingPathComponent(Hex.encode(ref) + ".keypackage") }

    public func save(_ bundle: KeyPackageBundle) throws {
        lock.lock(); defer { lock.unlock() }
        let target = url(bundle.reference)
        let tmp = directory.appendingPathComponent(".tmp-" + Hex.encode(SystemRandom().bytes(8)))
        let secret = bundle.privateSerialization()
        var contents = secret.withUnsafeBytes { Data($0) }
        let ok = FileManager.default.createFile(atPath: tmp.path, contents: contents, attributes: [.posixPermissions: 0o600])
        contents.resetBytes(in: 0..<contents.count)
        guard ok else { throw MLSError(.storage, "cannot write the key file") }
        guard rename(tmp.path, target.path) == 0 else {
            try? FileManager.default.removeItem(at: tmp)
            throw MLSError(.storage, "cannot move the key file into place")
        }
    }

    public func bundle(reference: [UInt8]) throws -> KeyPackageBundle? {
        lock.lock(); defer { lock.unlock() }
        let u = url(reference)
        guard FileManager.default.fileExists(atPath: u.path) else { return nil }
        guard var data = FileManager.default.contents(atPath: u.path) else { throw MLSError(.storage, "cannot read the key file") }
        let secret = SecureBytes(copying: data)
        // `data` is uniquely referenced here, so this wipes the buffer that held the keys.
        data.withUnsafeMutableBytes { b in for i in 0..<b.count { b[i] = 0 } }
        withExtendedLifetime(data) {}
        let bundle = try KeyPackageBundle(privateSerialization: secret)
        guard bundle.reference == reference else { throw MLSError(.storage, "key file does not match its name") }
        return bundle
    }

    public func consume(reference: [UInt8]) throws {
        guard let b = try bundle(reference: reference) else { throw MLSError(.notFound, "KeyPackage not stored") }
        guard !b.keyPackage.isLastResort else { return }
        lock.lock(); defer { lock.unlock() }
        let u = url(reference)
        if let h = try? FileHandle(forWritingTo: u) {
            let size = (try? h.seekToEnd()) ?? 0
            try? h.seek(toOffset: 0)
            try? h.write(contentsOf: Data(count: Int(size)))
            try? h.synchronize()
            try? h.close()
        }
        do { try FileManager.default.removeItem(at: u) } catch { throw MLSError(.storage, "cannot delete the key file") }
    }

    public func references() throws -> [[UInt8]] {
        lock.lock(); defer { lock.unlock() }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { n -> [UInt8]? in
            guard n.hasSuffix(".keypackage") else { return nil }
            return Hex.decode(n.dropLast(".keypackage".count), count: 32)
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
