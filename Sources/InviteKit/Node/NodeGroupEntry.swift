import InviteKitCrypto
import InviteKitMLS

/// One group in the node's registry (``InviteKitNode``'s only one): the engine state and what
/// the node keeps beside it. A group this node hosts has an invite tag; a joined one has none.
struct NodeGroupEntry: Sendable {
    var group: MarmotMLSGroup
    /// The tag every valid invite must carry (hosted groups only, PROTOCOL §3.7).
    var inviteTag: String?
    var relays: [String]
    var name: String?
    /// A Commit removed this node: its events are no longer read.
    var removed = false
    /// The engine's buffer changed since it was last written to `buffered_events`.
    var bufferDirty = false
    /// The engine's buffer holds the group's `buffered_events`. A node opens without reading
    /// them (only an arriving event uses the buffer); until then the table is the buffer, and
    /// nothing writes it.
    var bufferLoaded = true
    /// Buffered events evicted since the last ``NodeEvent/bufferedEventsEvicted(groupID:count:)``.
    var unreportedEvictions = 0
    /// When this node joined the group (its Welcome was processed), for a group it joined
    /// through an invite; `nil` for a group it created.
    var joinedAt: Int64?
    /// Buffered events created before ``joinedAt``: history from before the join, which no key
    /// of this member opens. Their eviction is not reported (issue 30): a new joiner's catch-up
    /// is full of them, and the report would be noise about nothing it lost.
    var preJoinBuffered: Set<String> = []
    /// The ratchet tree as its chunks are in the store, when known (docs/storage.md §6): a save
    /// writes the chunks that are not shared with it. `nil` makes the next save write them all.
    var savedTree: RatchetTree?
    /// The name and relays a Commit gave the row, for the entry once that write committed
    /// (``InviteKitNode/writeState(_:groupID:in:now:)``).
    var rowSync: (name: String, relays: [String])?

    init(group: MarmotMLSGroup, inviteTag: String?, relays: [String], name: String?, removed: Bool = false) {
        self.group = group; self.inviteTag = inviteTag; self.relays = relays; self.name = name; self.removed = removed
    }

    init(_ hosted: HostedGroup) {
        self.init(group: hosted.group, inviteTag: hosted.currentTag, relays: hosted.relays, name: hosted.name)
    }

    /// The `h` tag of its kind-445 events (MIP-03), lowercase hex.
    var nostrGroupID: String { Hex.encode(group.nostrGroupID) }

    /// The group as the join decisions see it; `nil` for a group this node only joined.
    var hosted: HostedGroup? {
        inviteTag.map { HostedGroup(group: group, currentTag: $0, relays: relays, name: name) }
    }
}
