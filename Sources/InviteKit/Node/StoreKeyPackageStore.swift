import Foundation
import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitStore

/// `KeyPackageStore` over the node's database (replaces `FileKeyPackageStore`): the private
/// bundle is the MLS layer's own serialization, kept in `key_packages`, one transaction per call.
final class StoreKeyPackageStore: KeyPackageStore, Sendable {
    let store: Store
    private let clock: @Sendable () -> Int64

    init(store: Store, clock: @escaping @Sendable () -> Int64 = { UnixTime.now() }) {
        self.store = store
        self.clock = clock
    }

    func save(_ bundle: KeyPackageBundle) throws {
        try store.write { tx in
            try tx.keyPackages.save(reference: bundle.reference, eventID: nil, bundle: bundle.privateSerialization(),
                                    lastResort: bundle.keyPackage.isLastResort, now: clock())
        }
    }

    func bundle(reference: [UInt8]) throws -> KeyPackageBundle? {
        guard let secret = try store.read({ tx in try tx.keyPackages.bundle(reference: reference) }) else { return nil }
        let bundle = try KeyPackageBundle(privateSerialization: secret)
        guard bundle.reference == reference else { throw MLSError(.storage, "stored KeyPackage does not match its reference") }
        return bundle
    }

    func consume(reference: [UInt8]) throws {
        guard try store.read({ tx in try tx.keyPackages.bundle(reference: reference) }) != nil else {
            throw MLSError(.notFound, "KeyPackage not stored")
        }
        try store.write { tx in try tx.keyPackages.consume(reference: reference) }
    }

    func references() throws -> [[UInt8]] {
        try store.read { tx in try tx.keyPackages.references() }
    }
}
