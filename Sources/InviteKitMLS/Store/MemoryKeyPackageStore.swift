import InviteKitCrypto

/// An in-memory ``KeyPackageStore``; private keys stay in ``SecureBytes``-backed key types.
public final class MemoryKeyPackageStore: KeyPackageStore {
    private let bundles = LockedBox([[UInt8]: KeyPackageBundle]())

    public init() {}

    public func save(_ bundle: KeyPackageBundle) throws {
        bundles.withLock { $0[bundle.reference] = bundle }
    }

    public func bundle(reference: [UInt8]) throws -> KeyPackageBundle? {
        bundles.withLock { $0[reference] }
    }

    public func consume(reference: [UInt8]) throws {
        try bundles.withLock { bundles in
            guard let b = bundles[reference] else { throw MLSError(.notFound, "KeyPackage not stored") }
            if !b.keyPackage.isLastResort { bundles[reference] = nil }
        }
    }

    public func references() throws -> [[UInt8]] {
        bundles.withLock { $0.keys.sorted { $0.lexicographicallyPrecedes($1) } }
    }
}
