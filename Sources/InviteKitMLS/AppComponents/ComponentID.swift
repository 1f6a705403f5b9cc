/// `ComponentID` values (draft-ietf-mls-extensions-10 §4.6, the registries of
/// `shared/marmot/v2/foundation/registries.md`; PROTOCOL.md §5.12). One place names every id
/// InviteKit reads or writes; the owning document of each defines its bytes.
public enum ComponentID {
    // MLS extensions draft (upstream) ids.
    /// `app_components`: a ComponentsList (supported ids in a LeafNode, required ids in a GroupContext).
    public static let appComponents: UInt16 = 0x0001
    /// `safe_aad`.
    public static let safeAAD: UInt16 = 0x0002
    /// `last_resort_key_package`: empty data in a KeyPackage-level dictionary.
    public static let lastResortKeyPackage: UInt16 = 0x0004

    // Marmot (private-use) ids.
    public static let groupProfile: UInt16 = 0x8001
    public static let blossomImage: UInt16 = 0x8002
    public static let adminPolicy: UInt16 = 0x8003
    public static let nostrRouting: UInt16 = 0x8004
    public static let messageRetention: UInt16 = 0x8005
    public static let agentTextStream: UInt16 = 0x8006
    public static let avatarURL: UInt16 = 0x8007
    /// Encrypted media v1: forbidden in a current-profile GroupContext (MDK 0.9.14
    /// `cgka-engine/src/app_components.rs`).
    public static let encryptedMediaV1: UInt16 = 0x8008
    public static let accountIdentityProof: UInt16 = 0x8009
    public static let encryptedMediaV2: UInt16 = 0x800b
    public static let lifecycle: UInt16 = 0x800c
    /// `marmot.group.invite-links.v1` (`app-components/group-invite-links-v1.md`; proposed, not
    /// adopted; PROTOCOL §5.14), advertised in ``currentProfileSupported``: the group engine
    /// commits and checks it (PROTOCOL §5.14.14), and a client without support cannot join a group
    /// that enabled it. Also the component id of the invite consent
    /// signature's SafeSignWithLabel.
    public static let inviteLinks: UInt16 = 0x800e

    /// InviteKit's out-of-band ratchet tree (docs/MIP-large-groups.md; PROTOCOL §5.11), from the
    /// private range, registered in PROTOCOL §5.12. A group uses tree chunks only when its required
    /// components name it, so a member that does not support it can never be in such a group.
    public static let inviteKitTreeChunks: UInt16 = 0xf1c0

    /// The ids a current-profile InviteKit leaf advertises as supported (its `app_components`
    /// entry): what marmot-app 0.9.14 advertises (`0x0001, 0x8001–0x8009, 0x800b, 0x800c`), so an
    /// MDK app can put us in any group it creates, invite links (a requester's offered leaf must
    /// support the group's 0x800e) and our tree-chunk component.
    public static let currentProfileSupported: [UInt16] = [
        appComponents, groupProfile, blossomImage, adminPolicy, nostrRouting, messageRetention, agentTextStream, avatarURL,
        encryptedMediaV1, accountIdentityProof, encryptedMediaV2, lifecycle, inviteLinks, inviteKitTreeChunks,
    ]

    /// `0x%04x`, the form of every id in tags and proofs.
    public static func hex(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
