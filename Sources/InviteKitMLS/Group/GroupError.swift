import InviteKitCrypto

/// Errors of the simplified group model (PROTOCOL.md §5).
public typealias GroupError = CodedFailure<GroupErrorCodes.Code>

/// The namespace of ``GroupError``'s codes.
public enum GroupErrorCodes {
    public enum Code: String, FailureCode {
        /// Bytes did not parse as the stated structure.
        case malformed
        /// A signature did not verify (forged commit, message or GroupInfo).
        case forged
        /// The committer is not an admin and the commit is not a pure self-update.
        case notAdmin = "not_admin"
        /// The commit or message names an epoch this member is not at.
        case wrongEpoch = "wrong_epoch"
        /// The same ciphertext was seen before.
        case replay
        /// A commit for an epoch that already applied a better commit (earlier `created_at`,
        /// then smaller event id).
        case superseded
        /// The epoch is older than the kept window of snapshots.
        case epochTooOld = "epoch_too_old"
        /// No kept epoch key opens the content (yet).
        case undecryptable
        /// The sender index is outside the roster.
        case unknownSender = "unknown_sender"
        /// The inner event's pubkey is not the authenticated sender.
        case senderMismatch = "sender_mismatch"
        /// A proposal cannot be applied (unknown member, duplicate add, invalid KeyPackage, ...).
        case invalidProposal = "invalid_proposal"
        /// The confirmation tag does not match the derived epoch.
        case invalidConfirmationTag = "invalid_confirmation_tag"
        /// This member is no longer in the group.
        case notAMember = "not_a_member"
        /// A Welcome could not be processed.
        case invalidWelcome = "invalid_welcome"
        /// The KeyPackage a Welcome names is not in the store.
        case unknownKeyPackage = "unknown_key_package"
        /// A Welcome was requested before the Commit was confirmed published.
        case commitNotPublished = "commit_not_published"
        /// The Nostr event is not a valid group event.
        case invalidEvent = "invalid_event"
    }
}
