/// The schema's history (PROTOCOL.md "Storage" documents each table). Never edit a shipped
/// migration: add the next one.
enum Schema {
    static let migrations: [Migration] = [v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v13, v14, v15]

    static var currentVersion: Int { migrations.last!.version }

    static let v1 = Migration(version: 1, name: "initial", statements: [
        """
        CREATE TABLE identity (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            public_key BLOB NOT NULL CHECK (length(public_key) = 32),
            created_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE relays (
            url TEXT PRIMARY KEY,
            position INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE groups (
            id TEXT PRIMARY KEY,
            nostr_group_id TEXT NOT NULL UNIQUE,
            name TEXT,
            engine TEXT NOT NULL,
            engine_version INTEGER NOT NULL,
            state BLOB NOT NULL,
            epoch INTEGER NOT NULL,
            current_tag TEXT,
            relays TEXT NOT NULL,
            updated_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE key_packages (
            ref BLOB PRIMARY KEY,
            event_id TEXT UNIQUE,
            bundle BLOB NOT NULL,
            last_resort INTEGER NOT NULL,
            created_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE invites (
            tag TEXT PRIMARY KEY,
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            format TEXT NOT NULL,
            url TEXT NOT NULL,
            single_use INTEGER NOT NULL,
            expires_at INTEGER,
            created_at INTEGER NOT NULL,
            revoked_at INTEGER
        )
        """,
        "CREATE INDEX invites_by_group ON invites(group_id, created_at)",
        """
        CREATE TABLE consumed_tags (
            key TEXT PRIMARY KEY,
            request_id TEXT,
            consumed_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE processed_requests (
            rumor_id TEXT PRIMARY KEY,
            outcome TEXT NOT NULL,
            group_id TEXT,
            processed_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE pending_commits (
            commit_event_id TEXT PRIMARY KEY,
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            epoch INTEGER NOT NULL,
            request_id TEXT,
            joiner BLOB,
            key_package_event_id TEXT,
            payload BLOB NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('waiting', 'confirmed', 'rolled_back')),
            created_at INTEGER NOT NULL,
            resolved_at INTEGER
        )
        """,
        "CREATE INDEX pending_commits_waiting ON pending_commits(group_id) WHERE status = 'waiting'",
        """
        CREATE TABLE outbound (
            event_id TEXT PRIMARY KEY,
            event_json TEXT NOT NULL,
            kind INTEGER NOT NULL,
            purpose TEXT NOT NULL,
            gate_event_id TEXT,
            created_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE outbound_deliveries (
            event_id TEXT NOT NULL REFERENCES outbound(event_id) ON DELETE CASCADE,
            relay TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'acked', 'rejected', 'given_up')),
            attempts INTEGER NOT NULL,
            next_attempt_at INTEGER NOT NULL,
            reason TEXT,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (event_id, relay)
        )
        """,
        "CREATE INDEX outbound_due ON outbound_deliveries(next_attempt_at) WHERE status IN ('queued', 'sent')",
        """
        CREATE TABLE messages (
            event_id TEXT PRIMARY KEY,
            group_id TEXT NOT NULL,
            sender BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            kind INTEGER NOT NULL,
            content TEXT NOT NULL,
            outgoing INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'acked', 'failed', 'received'))
        )
        """,
        "CREATE INDEX messages_in_order ON messages(group_id, created_at, event_id)",
    ])

    /// The joiner's side, and the outer gift-wrap id on processed requests (so catch-up skips a
    /// wrap it already handled without decrypting it).
    static let v2 = Migration(version: 2, name: "pending_joins_and_wrap_ids", statements: [
        """
        CREATE TABLE pending_joins (
            id TEXT PRIMARY KEY,
            invite_url TEXT NOT NULL,
            invite_tag TEXT,
            inviter BLOB NOT NULL,
            relays TEXT NOT NULL,
            key_package_ref BLOB,
            key_package_event_id TEXT,
            request_event_id TEXT,
            state TEXT NOT NULL CHECK (state IN ('requested', 'joined', 'failed', 'cancelled')),
            group_id TEXT,
            error_type TEXT,
            error_tag TEXT,
            error_reason TEXT,
            error_at INTEGER,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        )
        """,
        "ALTER TABLE processed_requests ADD COLUMN wrap_id TEXT",
        "CREATE UNIQUE INDEX processed_requests_by_wrap ON processed_requests(wrap_id)",
    ])

    /// The inviter's Whistle join requests waiting for an admin (PROTOCOL §8.3 rule 5): a Whistle
    /// code carries no signature, so each request is kept until `invite approve` or `decline`.
    static let v3 = Migration(version: 3, name: "pending_approvals", statements: [
        """
        CREATE TABLE pending_approvals (
            request_id TEXT PRIMARY KEY,
            wrap_id TEXT NOT NULL,
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            joiner BLOB NOT NULL CHECK (length(joiner) = 32),
            key_package_event TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('waiting', 'approved', 'declined')),
            commit_event_id TEXT,
            created_at INTEGER NOT NULL,
            resolved_at INTEGER
        )
        """,
        "CREATE INDEX pending_approvals_waiting ON pending_approvals(group_id, joiner) WHERE status = 'waiting'",
    ])

    /// The node runtime (docs/storage.md §6): single use per invite, many invites per tag, a group
    /// this node was removed from, and a local sequence that keeps own messages and replies in
    /// causal order within one second.
    static let v4 = Migration(version: 4, name: "per_invite_single_use", statements: [
        // Consumptions recorded per creator and tag become explicit tag-scoped keys; new ones are
        // per invite (`creator:invite:<sha256 of the payload>`).
        """
        UPDATE consumed_tags SET key = substr(key, 1, 64) || ':tag:' || substr(key, 66)
        WHERE length(key) > 65 AND substr(key, 65, 1) = ':' AND substr(key, 66, 4) <> 'tag:' AND substr(key, 66, 7) <> 'invite:'
        """,
        """
        CREATE TABLE invites_v4 (
            id TEXT PRIMARY KEY,
            tag TEXT NOT NULL,
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            format TEXT NOT NULL,
            url TEXT NOT NULL,
            single_use INTEGER NOT NULL,
            expires_at INTEGER,
            created_at INTEGER NOT NULL,
            revoked_at INTEGER
        )
        """,
        """
        INSERT INTO invites_v4(id, tag, group_id, format, url, single_use, expires_at, created_at, revoked_at)
        SELECT tag, tag, group_id, format, url, single_use, expires_at, created_at, revoked_at FROM invites
        """,
        "DROP TABLE invites",
        "ALTER TABLE invites_v4 RENAME TO invites",
        "CREATE INDEX invites_by_group ON invites(group_id, created_at)",
        "ALTER TABLE groups ADD COLUMN removed_at INTEGER",
        "ALTER TABLE messages ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",
        "UPDATE messages SET seq = rowid",
        "CREATE INDEX messages_by_sequence ON messages(group_id, created_at, seq)",
        // The next sequence is max(seq) + 1: an index keeps that a lookup, not a scan.
        "CREATE INDEX messages_seq ON messages(seq)",
    ])

    /// Kind-445 events no retained key opens yet, outside the group's state (PROTOCOL §5.9):
    /// bounded per group by the engine, so what outsiders send never grows a group's row.
    static let v5 = Migration(version: 5, name: "buffered_events", statements: [
        """
        CREATE TABLE buffered_events (
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            event_id TEXT NOT NULL,
            event_json TEXT NOT NULL,
            position INTEGER NOT NULL,
            PRIMARY KEY (group_id, event_id)
        )
        """,
        "CREATE INDEX buffered_events_in_order ON buffered_events(group_id, position)",
    ])

    /// A group's current ratchet tree in fixed runs of nodes, outside its `state` (docs/storage.md
    /// §6): a save rewrites only the runs a commit changed, and none for a message.
    static let v6 = Migration(version: 6, name: "group_tree_chunks", statements: [
        """
        CREATE TABLE group_tree_chunks (
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            chunk INTEGER NOT NULL,
            nodes BLOB NOT NULL,
            PRIMARY KEY (group_id, chunk)
        ) WITHOUT ROWID
        """,
    ])

    /// A group's seen log outside its `state` (docs/storage.md §6; PROTOCOL §5.9): an accepted
    /// event inserts two rows instead of rewriting the state, a duplicate writes nothing, and the
    /// engine's window bounds the rows.
    static let v7 = Migration(version: 7, name: "group_seen", statements: [
        """
        CREATE TABLE group_seen (
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            kind INTEGER NOT NULL CHECK (kind IN (0, 1)),
            value BLOB NOT NULL CHECK (length(value) = 32),
            epoch INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            PRIMARY KEY (group_id, kind, value)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX group_seen_by_epoch ON group_seen(group_id, epoch, seq)",
    ])

    /// Every app event kind and its tags are kept (docs/storage.md §6): the inner event's id (what
    /// reactions, replies, edits and deletions name), its tags as JSON, the id it points at, when
    /// retention removes it, and when its author deleted it (PROTOCOL §5.15).
    static let v8 = Migration(version: 8, name: "message_kinds_and_tags", statements: [
        "ALTER TABLE messages ADD COLUMN app_event_id TEXT",
        "ALTER TABLE messages ADD COLUMN tags TEXT NOT NULL DEFAULT '[]'",
        "ALTER TABLE messages ADD COLUMN refers_to TEXT",
        "ALTER TABLE messages ADD COLUMN expires_at INTEGER",
        "ALTER TABLE messages ADD COLUMN deleted_at INTEGER",
        "CREATE INDEX messages_by_app_event ON messages(group_id, app_event_id) WHERE app_event_id IS NOT NULL",
        "CREATE INDEX messages_referring ON messages(group_id, refers_to) WHERE refers_to IS NOT NULL",
        "CREATE INDEX messages_expiring ON messages(expires_at) WHERE expires_at IS NOT NULL",
    ])

    /// This home's own view of its groups (docs/storage.md §6): read state, mute and pin, never
    /// sent to the group; and when each group's own leaf was last rotated, for the node's
    /// self-update policy (PROTOCOL §5.16), so a restart does not reset it.
    static let v9 = Migration(version: 9, name: "group_local_state", statements: [
        """
        CREATE TABLE group_read_state (
            group_id TEXT PRIMARY KEY REFERENCES groups(id) ON DELETE CASCADE,
            last_read_event_id TEXT,
            last_read_created_at INTEGER,
            last_read_seq INTEGER,
            muted INTEGER NOT NULL DEFAULT 0,
            pinned_at INTEGER,
            updated_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE group_self_updates (
            group_id TEXT PRIMARY KEY REFERENCES groups(id) ON DELETE CASCADE,
            last_update_at INTEGER NOT NULL,
            last_update_seq INTEGER NOT NULL
        )
        """,
    ])

    static let v10 = Migration(version: 10, name: "invite_links_admin", statements: [
        """
        CREATE TABLE invite_links (
            link_id TEXT PRIMARY KEY,
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            generation BLOB NOT NULL,
            state TEXT NOT NULL,
            commit_event_id TEXT,
            descriptor_event_id TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        )
        """,
        "CREATE INDEX invite_links_by_group ON invite_links(group_id, created_at)",
        """
        CREATE TABLE invite_request_ledgers (
            group_id TEXT PRIMARY KEY REFERENCES groups(id) ON DELETE CASCADE,
            ledger BLOB NOT NULL,
            updated_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE invite_link_approvals (
            commit_event_id TEXT PRIMARY KEY,
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            context BLOB NOT NULL,
            request_hash BLOB NOT NULL,
            commit_hash BLOB NOT NULL,
            welcome_hash BLOB NOT NULL,
            status_relays TEXT NOT NULL,
            status TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            resolved_at INTEGER
        )
        """,
    ])

    /// A requester's joins through invite links (docs/storage.md §6; PROTOCOL §5.14.16): one row
    /// per request context, the sealed attempt (consent key, bearer, preview at consent, revision
    /// chain, notices, matched Welcome) beside the columns its listing and lookups need.
    static let v11 = Migration(version: 11, name: "invite_link_joins", statements: [
        """
        CREATE TABLE invite_link_joins (
            request_id TEXT PRIMARY KEY,
            link_id TEXT NOT NULL,
            code_relays TEXT NOT NULL,
            attempt BLOB NOT NULL,
            state TEXT NOT NULL,
            valid_until INTEGER NOT NULL,
            last_request_event_id TEXT NOT NULL,
            group_id TEXT,
            failure TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        )
        """,
        "CREATE INDEX invite_link_joins_by_created ON invite_link_joins(created_at, request_id)",
    ])

    /// The admins an invite link's creator sent its grant to (docs/storage.md §6; PROTOCOL
    /// §5.14.15): an admin promoted later gets the grant then. (v12 is another change's number.)
    static let v13 = Migration(version: 13, name: "invite_link_grants", statements: [
        "ALTER TABLE invite_links ADD COLUMN granted_admins TEXT NOT NULL DEFAULT ''",
    ])

    /// Welcomes held until their Add Commit settles on the selected branch (docs/storage.md §2;
    /// PROTOCOL §5.13, "Welcome hold"): the Commit's event id while held, `NULL` once released.
    static let v14 = Migration(version: 14, name: "welcome_holds", statements: [
        "ALTER TABLE outbound ADD COLUMN held_for_commit TEXT",
        "CREATE INDEX outbound_held ON outbound(held_for_commit) WHERE held_for_commit IS NOT NULL",
    ])

    /// What an admin found when it validated each request's offer evidence (docs/storage.md §6;
    /// PROTOCOL §5.14.15, "Offer evidence"): only a `valid` offer is processed automatically.
    static let v15 = Migration(version: 15, name: "invite_offer_checks", statements: [
        """
        CREATE TABLE invite_offer_checks (
            request_hash BLOB PRIMARY KEY,
            group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
            outcome TEXT NOT NULL CHECK (outcome IN ('valid', 'invalid', 'unavailable')),
            reason TEXT,
            attempts INTEGER NOT NULL,
            next_check_at INTEGER NOT NULL,
            checked_at INTEGER NOT NULL
        )
        """,
        "CREATE INDEX invite_offer_checks_by_group ON invite_offer_checks(group_id)",
    ])
}
