/// Where the private halves of published KeyPackages live until a Welcome consumes them.
public protocol KeyPackageStore: Sendable {
    /// Keeps a bundle under its KeyPackageRef.
    func save(_ bundle: KeyPackageBundle) throws
    /// The bundle for a KeyPackageRef, or `nil`.
    func bundle(reference: [UInt8]) throws -> KeyPackageBundle?
    /// Marks a KeyPackage used by a successful Welcome: retired (deleted) unless it is
    /// last-resort, which may serve several Welcomes (Marmot MIP-00; PROTOCOL.md §4.5).
    func consume(reference: [UInt8]) throws
    /// Every stored KeyPackageRef.
    func references() throws -> [[UInt8]]
}
