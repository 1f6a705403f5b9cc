/// What the enclosing Commit does, as far as the invite-links update rules need it
/// (`shared/marmot/v2/app-components/group-invite-links-v1.md` "Updates, authorization, and removal";
/// PROTOCOL §5.14.2). The caller resolves proposals and admin policy against the candidate parent;
/// authorization of the committer itself (only an active admin may change 0x800e) is the adopted
/// core's, not this check's.
public struct InviteLinksCommitFacts: Hashable, Sendable {
    /// The Commit demotes a candidate-parent active-admin account, or carries a resolved Remove
    /// of an active-admin leaf (even if another leaf of that account remains).
    public var retiresAdmin: Bool
    /// The Commit demotes its own committer's account.
    public var demotesCommitter: Bool
    /// The resulting group is terminal (disbanded): 0x800e must not be modified.
    public var disbands: Bool

    public init(retiresAdmin: Bool = false, demotesCommitter: Bool = false, disbands: Bool = false) {
        self.retiresAdmin = retiresAdmin
        self.demotesCommitter = demotesCommitter
        self.disbands = disbands
    }
}

extension InviteLinksV1 {
    /// Checks a Commit's resulting 0x800e state against its candidate parent, independently of
    /// proposal order (`invalid_invite_links_update`). `nil` means the component is absent.
    ///
    /// - Once enabled the component stays: `parent != nil, resulting == nil` is refused.
    /// - A disbanding Commit leaves it byte-identical.
    /// - An id in both states keeps a byte-identical entry; a new id does not take over an inbox
    ///   the parent used under another id (a changed entry needs a fresh id *and* inbox).
    /// - Retiring an admin (demotion or admin-leaf Remove) leaves none of the parent's ids or
    ///   inboxes in a nonterminal resulting state.
    /// - Demoting the committer's own account leaves the vector empty (no replacement links).
    public static func validateTransition(from parent: InviteLinksV1?, to resulting: InviteLinksV1?, facts: InviteLinksCommitFacts) throws {
        guard let parent else { return }  // enabling (or still absent): structure is checked by the decoder
        guard let resulting else { throw MLSError(.invalidInviteLinksUpdate, "component 0x800e cannot be removed once enabled") }
        if facts.disbands {
            guard parent.encoded == resulting.encoded else {
                throw MLSError(.invalidInviteLinksUpdate, "a disbanding Commit must not modify component 0x800e")
            }
            return
        }
        let parentInboxes = Dictionary(parent.links.map { ($0.inboxPublicKey, $0.linkID) }, uniquingKeysWith: { a, _ in a })
        for entry in resulting.links {
            if let old = parent.link(entry.linkID) {
                guard old.encoded == entry.encoded else {
                    throw MLSError(.invalidInviteLinksUpdate, "the entry under an existing link id changed; a change needs a fresh id and inbox")
                }
            } else if parentInboxes[entry.inboxPublicKey] != nil {
                throw MLSError(.invalidInviteLinksUpdate, "a new link id reuses an inbox of the parent state")
            }
        }
        if facts.demotesCommitter, !resulting.links.isEmpty {
            throw MLSError(.invalidInviteLinksUpdate, "a Commit demoting its committer must leave the invite links empty")
        }
        if facts.retiresAdmin {
            let parentIDs = Set(parent.links.map(\.linkID))
            for entry in resulting.links where parentIDs.contains(entry.linkID) || parentInboxes[entry.inboxPublicKey] != nil {
                throw MLSError(.invalidInviteLinksUpdate, "a Commit retiring an admin must retire every parent link id and inbox")
            }
        }
    }
}
