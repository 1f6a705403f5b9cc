import InviteKitCrypto
import InviteKitNostr

/// Kind-444 Welcome rumors (PROTOCOL §5.3). Unsigned, authored by the committer, gift-wrapped
/// (NIP-59) to each new member; content = padded base64 of an RFC 9420 `MLSMessage` with
/// `wire_format = mls_welcome`. Tags by profile:
/// - MIP (MDK 0.8.0, MIP-02), in MDK's order: `["relays", url...]` (the group's relays), `["e",
///   <KeyPackage event id>]`, `["client", name]`, `["encoding", "base64"]`.
/// - current (MDK v0.9.14 `transport-nostr-peeler/src/peeler.rs:318-360`; `transports/nostr.md`,
///   "Welcome delivery"): exactly `["e", id]` and `["relays", url...]`.
/// One rumor per new member: within one commit the content is shared and only `e` differs.
package enum MarmotWelcomeRumor {
    package static let kind = MarmotProfile.welcomeKind
    /// `wire_format` of a Welcome MLSMessage (RFC 9420 §6).
    package static let welcomeWireFormat: UInt16 = 0x0003

    /// A Welcome rumor as read back.
    package struct Parsed: Sendable, Hashable {
        /// The serialized `MLSMessage` (version, `wire_format = mls_welcome`, Welcome).
        package let welcomeMessage: [UInt8]
        /// The id of the KeyPackage event the Welcome consumes (the `e` tag).
        package let keyPackageEventID: String
        /// The group's relays (the `relays` tag).
        package let relays: [String]
        /// The `client` tag, when present.
        package let client: String?
        /// The `tree_chunks` tag: the Welcome's ratchet tree is out of band (PROTOCOL §5.11).
        package let treeChunks: RatchetTreeChunks.Reference?
    }

    /// Builds the rumor for one new member. Refuses an empty relay list or a `welcomeMessage` that is
    /// not an MLSMessage Welcome, since MDK refuses both on receipt. `treeChunks` adds the
    /// `tree_chunks` tag last, for a Welcome whose tree is out of band (PROTOCOL §5.11).
    package static func make(welcomeMessage: [UInt8], keyPackageEventID: String, relays: [String],
                            committer: Secp256k1.XOnlyPublicKey, createdAt: Int64 = UnixTime.now(),
                            client: String = KeyPackageEvent.clientName, treeChunks: RatchetTreeChunks.Reference? = nil,
                            profile: MarmotWireProfile = .mip) throws -> NostrEvent {
        try checkWelcomeMessage(welcomeMessage)
        try KeyPackageEvent.checkRelays(relays)
        guard keyPackageEventID.utf8.count == 64, Hex.decode(keyPackageEventID, count: 32) != nil else {
            throw MLSError(.invalidValue, "KeyPackage event id must be 64 hex characters")
        }
        guard !client.isEmpty else { throw MLSError(.invalidValue, "client tag must not be empty") }
        var tags: [[String]]
        switch profile {
        case .mip: tags = [["relays"] + relays, ["e", keyPackageEventID], ["client", client], ["encoding", "base64"]]
        case .current: tags = [["e", keyPackageEventID], ["relays"] + relays]
        }
        if let treeChunks { tags.append(treeChunks.tag) }
        return EventTemplate(kind: kind, content: Base64.encode(welcomeMessage), tags: tags, createdAt: createdAt).rumor(pubkey: committer)
    }

    /// Reads a Welcome rumor of either profile with MDK's rules: kind 444; a `relays` tag with at
    /// least one relay URL; a non-empty `e` tag; a `client` tag, if present, non-empty; an
    /// `encoding` tag, if present, saying `base64` (MDK 0.8.0 requires it, MDK 0.9.14 sends none
    /// and ignores extra tags). InviteKit also checks
    /// the rumor id (the gift wrap binds it) and that the content is a Welcome MLSMessage.
    package static func parse(_ rumor: NostrEvent) throws -> Parsed {
        guard rumor.kind == kind else { throw MLSError(.invalidEvent, "kind \(rumor.kind) is not 444") }
        do { try rumor.verifyId() } catch { throw MLSError(.invalidEvent, "Welcome rumor id does not match its fields") }
        var relays: [String]?
        var eventID: String?
        var client: String?
        var treeChunks: RatchetTreeChunks.Reference?
        for tag in rumor.tags {
            switch tag.first {
            case "relays" where tag.count > 1:
                let urls = Array(tag.dropFirst())
                try KeyPackageEvent.checkRelays(urls)
                if relays == nil { relays = urls }
            case "e" where tag.count > 1 && !tag[1].isEmpty:
                if eventID == nil { eventID = tag[1] }
            case "client":
                guard tag.count > 1, !tag[1].isEmpty else { throw MLSError(.invalidEvent, "empty client tag") }
                if client == nil { client = tag[1] }
            case "encoding":
                guard tag.count > 1, tag[1] == "base64" else { throw MLSError(.invalidEvent, "encoding must be base64") }
            case "tree_chunks":
                guard treeChunks == nil else { throw MLSError(.treeChunkInvalid, "two tree_chunks tags") }
                treeChunks = try RatchetTreeChunks.Reference(tag: tag)
            default:
                break
            }
        }
        guard let relays else { throw MLSError(.invalidRelays, "Welcome rumor has no relays tag with a relay URL") }
        guard let eventID else { throw MLSError(.invalidEvent, "Welcome rumor has no e tag") }
        guard let message = Base64.decode(rumor.content) else { throw MLSError(.invalidEvent, "Welcome content is not padded base64") }
        try checkWelcomeMessage(message)
        return Parsed(welcomeMessage: message, keyPackageEventID: eventID, relays: relays, client: client, treeChunks: treeChunks)
    }

    /// The first four bytes of an MLSMessage Welcome: `version = mls10`, `wire_format = mls_welcome`.
    static func checkWelcomeMessage(_ message: [UInt8]) throws {
        var r = TLSReader(message)
        let version = try r.readUInt16(), wireFormat = try r.readUInt16()
        guard version == ProtocolVersion.mls10.rawValue, wireFormat == welcomeWireFormat else {
            throw MLSError(.invalidEvent, "Welcome content is not an MLSMessage Welcome (version \(version), wire_format \(wireFormat))")
        }
    }
}
