import InviteKitMLS

/// The node's KeyPackages for a tentative join (PROTOCOL §5.14.16): reads go to the store,
/// `consume` does nothing, so a Welcome can be opened and checked against the consented preview
/// before its KeyPackage is deleted. The caller consumes it in the transaction that stores the
/// group; a Welcome refused on the way keeps its KeyPackage.
struct TentativeKeyPackageStore: KeyPackageStore {
    let base: KeyPackageStore

    func save(_ bundle: KeyPackageBundle) throws { try base.save(bundle) }
    func bundle(reference: [UInt8]) throws -> KeyPackageBundle? { try base.bundle(reference: reference) }
    func consume(reference: [UInt8]) throws {}
    func references() throws -> [[UInt8]] { try base.references() }
}
