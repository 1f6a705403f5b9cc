import Foundation

/// An in-memory ``KeyPackageStore``; private keys stay in ``SecureBytes``-backed key types.
public final class MemoryKeyPackageStore: KeyPackageStore, @unchecked Sendable {
    private var bundles: [[UInt8]: KeyPackageBundle] = [:]
    private let lock = NSLock()

    public init() {}

    public func save(_ bundle: KeyPackageBundle) throws {
        lock.lock(); defer { lock.unlock() }
        bundles[bundle.reference] = bundle
    }

    public func bundle(reference: [UInt8]) throws -> KeyPackageBundle? {
        lock.lock(); defer { lock.unlock() }
        return bundles[reference]
    }

    public func consume(reference: [UInt8]) throws {
        lock.lock(); defer { lock.unlock() }
        guard let b = bundles[reference] else { throw MLSError(.notFound, "KeyPackage not stored") }
        if !b.keyPackage.isLastResort { bundles[reference] = nil }
    }

    public func references() throws -> [[UInt8]] {
        lock.lock(); defer { lock.unlock() }
        return bundles.keys.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
