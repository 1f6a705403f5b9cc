/// The two Marmot profiles InviteKit speaks (PROTOCOL §5.12). A group is one profile for life:
/// the GroupContext says which, and every leaf and commit must agree (MDK v0.9.14
/// `crates/cgka-engine/src/account_identity_proof.rs`, `validate_staged_commit_account_identity_proofs`).
public enum MarmotWireProfile: String, Sendable, CaseIterable, CustomStringConvertible {
    /// MIP-00..03 as MDK 0.8.0 speaks it: group data in GroupContext extension `0xf2ee`, no
    /// account proof, handshakes as PrivateMessage, `encoding` tags.
    case mip
    /// The adopted spec as MDK ≥ 0.9.5 speaks it: app components in `app_data_dictionary`, the
    /// account identity proof `0x8009` on every leaf, handshakes as PublicMessage.
    case current

    public var description: String { rawValue }

    /// The profile a GroupContext's extensions declare: `0xf2ee` → MIP; an `app_data_dictionary`
    /// whose required list names `0x8009` → current; `nil` when neither (a plain RFC 9420 group,
    /// which no Marmot rule applies to). Both at once is refused.
    public static func of(groupContextExtensions extensions: [MLSExtension]) throws -> MarmotWireProfile? {
        let mip = extensions.contains { $0.extensionType == MarmotProfile.groupDataExtensionType }
        var current = false
        if let dictionary = try AppDataDictionary(extensions: extensions), let raw = dictionary[ComponentID.appComponents] {
            current = try ComponentsList(decoding: raw).contains(ComponentID.accountIdentityProof)
        }
        switch (mip, current) {
        case (true, true): throw MLSError(.profileMismatch, "group carries both 0xf2ee and the current profile's required 0x8009")
        case (true, false): return .mip
        case (false, true): return .current
        case (false, false): return nil
        }
    }

    /// The profile a leaf (or a KeyPackage's leaf) was made for: current when it carries an
    /// `app_data_dictionary` or the legacy proof extension `0xf2f1`, MIP otherwise.
    package static func of(leaf: LeafNode) -> MarmotWireProfile {
        leaf.extensions.contains {
            $0.extensionType == AppDataDictionary.extensionType || $0.extensionType == AccountIdentityProof.legacyExtensionType
        } ? .current : .mip
    }
}
