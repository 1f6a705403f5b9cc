import InviteKitCrypto

/// Validates signed invites.
///
/// Checks, in the order of ``InviteCheck``: signature (and creator), invite expiry, conversation
/// (creator side: the token opens and names an existing conversation), conversation expiry,
/// revocation, single use (PROTOCOL.md §3.7).
///
/// The signature is checked first, and when it fails nothing else is examined: the other
/// fields of a forged invite mean nothing, and reporting "expired" for one would tell a forger
/// which fields matter. Validation only reads: it never consumes a single-use invite. The
/// caller that acts on the verdicts consumes (in the join flow, `JoinRequestProcessor`, after
/// every other check passed), so a rejected join never burns an invite.
public enum InviteValidator {
    /// Runs every check (see the type's discussion for the order) and never throws: each
    /// outcome is in the result.
    public static func validate(_ invite: SignedInvite, context: InviteValidationContext) -> InviteValidationResult {
        var r = InviteValidationResult()
        let creator: Secp256k1.XOnlyPublicKey
        do throws(InviteError) {
            let signer = try invite.verify(expectedCreator: context.expectedCreator)
            if let own = context.creator?.key.publicKey, !signer.compressed.dropFirst().elementsEqual(own.rawRepresentation) {
                throw InviteError(.creatorMismatch, "invite made by another creator")
            }
            creator = signer.xOnly
        } catch {
            r.signature = .failed(error)
            return r
        }
        r.signature = .passed
        r.creator = creator
        let p = invite.payload

        if let exp = p.expiresAtUnix {
            r.inviteExpiry = context.now >= exp ? .failed(InviteError(.inviteExpired)) : .passed
        }
        var currentTag = context.currentTag
        if let state = context.creator {
            do {
                let id = try ConversationToken.open(p.conversationToken, creatorKey: state.key,
                                                    creatorId: ConversationToken.creatorId(for: creator))
                r.conversationID = id
                if let tag = state.currentTag(id) {
                    currentTag = tag
                    r.conversation = .passed
                } else {
                    r.conversation = .failed(InviteError(.conversationNotFound))
                }
            } catch {
                r.conversation = .failed(error)
            }
        }
        if let exp = p.conversationExpiresAtUnix {
            r.conversationExpiry = context.now >= exp ? .failed(InviteError(.conversationExpired)) : .passed
        }
        if let current = currentTag {
            r.revocation = ConstantTime.equals(Array(current.utf8), Array(p.tag.utf8))
                ? .passed : .failed(InviteError(.inviteRevoked))
        }
        if p.expiresAfterUse, let store = context.store {
            if r.error != nil { return r }
            do throws(InviteError) {
                let usedInvite = try store.isConsumed(consumedKey(creator: creator, invite: invite))
                let usedTag = try store.isConsumed(legacyConsumedKey(creator: creator, tag: p.tag))
                let used = usedInvite || usedTag
                r.singleUse = used ? .failed(InviteError(.inviteAlreadyUsed)) : .passed
            } catch {
                r.singleUse = .failed(error)
            }
        }
        return r
    }

    /// The consumed-store key of a single-use invite (PROTOCOL §3.7): the creator and SHA-256 of
    /// the signed payload bytes. Each invite is used up on its own, so two single-use invites
    /// of one group (same tag) are independent. The payload bytes are covered by the signature,
    /// so unlike an ECDSA signature they cannot be re-encoded into a second valid key.
    public static func consumedKey(creator: Secp256k1.XOnlyPublicKey, invite: SignedInvite) -> String {
        creator.hex + ":invite:" + Hex.encode(SHA256.hash(invite.payloadBytes))
    }

    /// The key a consumption recorded before per-invite keys (store schema 4): creator and tag.
    /// Such a row still counts for every invite of its tag, since which invite used it is unknown.
    public static func legacyConsumedKey(creator: Secp256k1.XOnlyPublicKey, tag: String) -> String {
        creator.hex + ":tag:" + tag
    }
}
