import InviteKitCrypto

/// Errors from the MLS codec, KeyPackages, their events and the MLS crypto helpers.
public typealias MLSError = CodedFailure<MLSErrorCodes.Code>

/// The namespace of ``MLSError``'s codes.
public enum MLSErrorCodes {
    /// Stable machine-readable reasons.
    public enum Code: String, FailureCode {
        /// Input ended before a field was complete.
        case truncated
        /// A variable-length integer used the reserved `0b11` prefix (RFC 9420 §2.1.2).
        case invalidVarint = "invalid_varint"
        /// A variable-length integer was not minimally encoded (RFC 9420 §2.1.2).
        case nonMinimalVarint = "non_minimal_varint"
        /// Bytes were left over after a structure or vector was parsed.
        case trailingBytes = "trailing_bytes"
        /// A field had a value this implementation does not accept.
        case invalidValue = "invalid_value"
        /// A value is too large to encode.
        case tooLarge = "too_large"
        /// The cipher suite is not supported.
        case unsupportedCipherSuite = "unsupported_cipher_suite"
        /// A key had the wrong length or was not a valid point.
        case invalidKey = "invalid_key"
        /// An AEAD or HPKE open failed.
        case decryptionFailed = "decryption_failed"
        /// A signature did not verify.
        case invalidSignature = "invalid_signature"
        /// A KeyPackage event failed validation.
        case invalidEvent = "invalid_event"
        /// A KeyPackage is past its `not_after` (plus the allowed skew).
        case expired
        /// A KeyPackage is before its `not_before` (minus the allowed skew).
        case notYetValid = "not_yet_valid"
        /// A KeyPackage event's `relays` tag is missing, empty or holds a non-relay URL.
        case invalidRelays = "invalid_relays"
        /// A Marmot Group Data extension (0xf2ee) is malformed (MIP-01).
        case invalidGroupData = "invalid_group_data"
        /// A commit by a non-admin that is not a pure self-update or SelfRemove (MIP-03).
        case notAdmin = "not_admin"
        /// A change to a group whose lifecycle component (`0x800c`) says `disbanded`, or a disband
        /// Commit of the wrong shape (`app-components/group-lifecycle-v1.md`).
        case groupDisbanded = "group_disbanded"
        /// An own commit was overtaken by another commit for its epoch before it was confirmed.
        case staleCommit = "stale_commit"
        /// `confirmPublished` without an acknowledging relay.
        case commitNotPublished = "commit_not_published"
        /// A Welcome is malformed, for someone else, or not from an admin.
        case invalidWelcome = "invalid_welcome"
        /// The credential does not match the event author.
        case credentialMismatch = "credential_mismatch"
        /// A store operation failed.
        case storage
        /// Not found in a store.
        case notFound = "not_found"
        /// A ratchet tree is malformed or breaks an invariant of RFC 9420 §7 (node types, unmerged
        /// leaves, duplicate keys).
        case invalidTree = "invalid_tree"
        /// A tree hash differs from the expected one (RFC 9420 §7.8).
        case treeHashMismatch = "tree_hash_mismatch"
        /// A parent hash does not verify (RFC 9420 §7.9.2).
        case parentHashMismatch = "parent_hash_mismatch"
        /// An UpdatePath does not fit the tree or its keys do not match (RFC 9420 §7.6).
        case invalidUpdatePath = "invalid_update_path"
        /// A feature outside the Marmot profile of RFC 9420 (PSKs, ReInit, external joins).
        case unsupportedFeature = "unsupported_feature"
        /// A proposal or the proposal list of a commit breaks RFC 9420 §12.2.
        case invalidProposal = "invalid_proposal"
        /// A commit references a proposal this member has not received (yet): relays may deliver
        /// a commit before the proposals it covers, so the event waits for them (RFC 9420 §12.4).
        case unknownProposal = "unknown_proposal"
        /// A commit is malformed or cannot be applied (RFC 9420 §12.4.2).
        case invalidCommit = "invalid_commit"
        /// This member is no longer in the group (RFC 9420 §12.1.3).
        case notMember = "not_member"
        /// A message names another group than the one processing it (RFC 9420 §6).
        case wrongGroup = "wrong_group"
        /// A message is for another epoch than the one whose secrets were given (RFC 9420 §6).
        case wrongEpoch = "wrong_epoch"
        /// A generation is further ahead of the ratchet than the secret tree allows (RFC 9420 §9.4).
        case generationTooFar = "generation_too_far"
        /// A generation's key was already used, or fell out of the out-of-order window (RFC 9420 §9.4).
        case generationUnavailable = "generation_unavailable"
        /// PrivateMessageContent padding held a non-zero byte (RFC 9420 §6.3.1).
        case invalidPadding = "invalid_padding"
        /// A PublicMessage membership tag did not verify (RFC 9420 §6.2).
        case invalidMembershipTag = "invalid_membership_tag"
        /// A commit's confirmation tag did not verify (RFC 9420 §6.1).
        case invalidConfirmationTag = "invalid_confirmation_tag"
        /// The sender is not allowed for this message form, or its leaf is outside the tree (RFC 9420 §6).
        case invalidSender = "invalid_sender"
        /// An event would exceed the configured `maxEventBytes` (PROTOCOL §5.11).
        case eventTooLarge = "event_too_large"
        /// A Welcome names ratchet-tree chunk events that were not (all) found (PROTOCOL §5.11).
        case treeChunksMissing = "tree_chunks_missing"
        /// A ratchet-tree chunk event is malformed, does not decrypt, or the chunks do not make up
        /// the tree the GroupInfo names (PROTOCOL §5.11).
        case treeChunkInvalid = "tree_chunk_invalid"
        /// Stored bytes of a format version this build does not read (PROTOCOL.md §5.10).
        case unsupportedVersion = "unsupported_version"
        /// An app component's bytes, or a ComponentsList or app_data_dictionary, break their rules
        /// (draft-ietf-mls-extensions-10 §4.6; the component's document; PROTOCOL §5.12).
        case invalidComponent = "invalid_component"
        /// A leaf's account identity proof (component 0x8009) is missing, repeated, not advertised,
        /// by another account, over another key, or does not verify (PROTOCOL §5.12.2).
        case invalidIdentityProof = "invalid_identity_proof"
        /// A leaf, KeyPackage or commit of the other Marmot profile than the group's (PROTOCOL §5.12).
        case profileMismatch = "profile_mismatch"
        /// An invite-links entry or component 0x800e state breaks its layout or bounds
        /// (`app-components/group-invite-links-v1.md`; PROTOCOL §5.14.1).
        case invalidInviteLinks = "invalid_invite_links"
        /// A replacement of component 0x800e breaks an update rule against its parent state
        /// (`group-invite-links-v1.md` "Updates, authorization, and removal"; PROTOCOL §5.14.2).
        case invalidInviteLinksUpdate = "invalid_invite_links_update"
        /// A `marmot1…` invite code, its Bech32m text or its binary bytes are malformed
        /// (`transports/nostr-invite-links.md` "Long code"; PROTOCOL §5.14.3).
        case invalidInviteCode = "invalid_invite_code"
        /// An invite preview plaintext or its descriptor content is malformed or out of bounds
        /// (`nostr-invite-links.md` "Preview descriptor"; PROTOCOL §5.14.4).
        case invalidInvitePreview = "invalid_invite_preview"
        /// An invite request, withdrawal, status, admin record, admin batch or Nostr invite envelope
        /// is malformed or breaks a rule of its owner (`foundation/invite-link-records.md`;
        /// PROTOCOL §5.14.5–§5.14.8).
        case invalidInviteRecord = "invalid_invite_record"
        /// An invite request was refused by an admission bound, without being declined; nothing
        /// retained was evicted to make room (`features/group-invite-links.md` "Retention, capacity
        /// and restart"; PROTOCOL §5.14.10).
        case inviteCapacity = "invite_capacity"
        /// An invite request names a link that is not an active entry of the selected group state,
        /// or one whose generation was retired (PROTOCOL §5.14.10).
        case inviteLinkInactive = "invite_link_inactive"
        /// An invite request or decision is not authorized: a wrong bearer, or consent made ambiguous
        /// by conflicting refreshes (the spec's `authorization_failed`; PROTOCOL §5.14.10).
        case inviteUnauthorized = "invite_unauthorized"
        /// An invite request context can no longer be acted on: withdrawn, revoked, expired or
        /// already realized (PROTOCOL §5.14.10).
        case inviteRequestClosed = "invite_request_closed"
        /// A Welcome for an invite-link request whose group holds no entry matching the preview
        /// the user consented to: nothing is joined without a new explicit choice (PROTOCOL §5.14.11).
        case invitePreviewMismatch = "invite_preview_mismatch"
    }

}
