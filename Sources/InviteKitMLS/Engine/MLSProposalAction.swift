/// A change a member asks for in its own commit.
package enum MLSProposalAction: Sendable {
    /// Add the member of a (validated) KeyPackage (RFC 9420 §12.1.1).
    case add(KeyPackage)
    /// Remove a member by leaf index (RFC 9420 §12.1.3).
    case remove(leaf: UInt32)
    /// Replace the GroupContext extensions (RFC 9420 §12.1.7).
    case groupContextExtensions([MLSExtension])
    /// Replace or remove one GroupContext component (draft-ietf-mls-extensions-10 §4.6.2).
    case appDataUpdate(AppDataUpdate)
}
