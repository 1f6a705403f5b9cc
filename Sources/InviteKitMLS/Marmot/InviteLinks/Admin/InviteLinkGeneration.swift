import InviteKitCrypto

/// One invitation generation an admin holds: the component entry, the complete code, the preview
/// and the inbox private key (`features/group-invite-links.md` "Creating and sharing";
/// `app-components/group-invite-links-v1.md`; PROTOCOL §5.14.13). Every secret is fresh and
/// independent: the inbox is never derived from the group or an account.
public struct InviteLinkGeneration: Sendable {
    public let entry: InviteLinkV1
    public let code: InviteCodeV1
    /// The preview the entry's `preview_hash` commits to, when this device made the generation;
    /// a granted generation learns it from the descriptor (checked against the entry).
    public let preview: InvitePreviewV1?
    let inboxPrivateKey: SecureBytes

    /// The inbox key, for opening requests and signing the descriptor.
    public var inboxKey: Secp256k1.PrivateKey {
        get throws { try Secp256k1.PrivateKey(rawRepresentation: inboxPrivateKey) }
    }

    /// Prepares a fresh generation: inbox key, link id, bearer and preview key from `rng`, the
    /// preview with the group's `name`, `description` and image, and the entry committing to them.
    /// It is usable only after an authorized policy Commit adds `entry` and is published and
    /// applied; the caller shares `code` no earlier.
    public static func create(name: String, description: String = "", imageType: InvitePreviewV1.ImageType = .none, image: [UInt8] = [],
                              expiresAt: UInt64 = 0, approvalMode: InviteLinkV1.ApprovalMode, requestRelays: [String],
                              rng: RandomSource = SystemRandom()) throws -> InviteLinkGeneration {
        let inbox = Secp256k1.PrivateKey(using: rng)
        let linkID = rng.bytes(32)
        let code = try InviteCodeV1(inboxPublicKey: inbox.publicKey.rawRepresentation, linkID: linkID, bearer: rng.secureBytes(32),
                                    previewKey: rng.secureBytes(32), requestRelays: requestRelays)
        let preview = try InvitePreviewV1(inboxPublicKey: code.inboxPublicKey, linkID: linkID, bearerHash: code.bearerHash, expiresAt: expiresAt,
                                          approvalMode: approvalMode, name: name, description: description, imageType: imageType, image: image)
        let entry = try InviteLinkV1(linkID: linkID, inboxPublicKey: code.inboxPublicKey, bearerHash: code.bearerHash,
                                     previewHash: preview.previewHash, expiresAt: expiresAt, approvalMode: approvalMode)
        return InviteLinkGeneration(entry: entry, code: code, preview: preview, inboxPrivateKey: inbox.rawRepresentation)
    }

    /// Takes a grant received inside MLS, refusing one that is not a grant (`invalid_invite_record`)
    /// or whose entry is not, byte for byte, an entry of `current`, the selected state's component
    /// (`invite_link_inactive`). The record itself already checked that the key derives the inbox
    /// and that the code opens the entry (``InviteAdminRecordV1``).
    /// A historical grant for a retired generation gives no admission authority.
    public init(grant record: InviteAdminRecordV1, current: InviteLinksV1) throws {
        guard case let .grant(entry, key, code) = record.action else { throw MLSError(.invalidInviteRecord, "not a grant") }
        guard current.links.contains(entry) else {
            throw MLSError(.inviteLinkInactive, "the granted generation is not an entry of the current group state")
        }
        self.init(entry: entry, code: code, preview: nil, inboxPrivateKey: key)
    }

    init(entry: InviteLinkV1, code: InviteCodeV1, preview: InvitePreviewV1?, inboxPrivateKey: SecureBytes) {
        self.entry = entry
        self.code = code
        self.preview = preview
        self.inboxPrivateKey = inboxPrivateKey
    }

    /// The grant of this generation for another admin (or this admin's other device), authored in
    /// the group state of `sourceEpoch`. Carried encrypted to each recipient inside MLS.
    public func grant(groupID: [UInt8], sourceEpoch: UInt64) throws -> InviteAdminRecordV1 {
        try InviteAdminRecordV1(groupID: groupID, sourceEpoch: sourceEpoch, linkID: entry.linkID,
                                action: .grant(entry: entry, inboxPrivateKey: inboxPrivateKey, code: code))
    }

    /// Checks a fetched preview against the entry's commitment; a granted generation shows only
    /// a preview that passes.
    public func verify(_ preview: InvitePreviewV1) throws {
        guard preview.previewHash == entry.previewHash, preview.matches(code) else {
            throw MLSError(.invalidInvitePreview, "the preview does not match the entry's commitment")
        }
    }
}
