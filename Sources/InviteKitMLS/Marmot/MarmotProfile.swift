/// The Marmot profile of RFC 9420 as MDK 0.8.0 speaks it (MIP-00..MIP-03). Where the MIP text and
/// MDK's bytes disagree, these values follow MDK's bytes.
package enum MarmotProfile {
    /// Marmot Group Data GroupContext extension (MIP-01).
    package static let groupDataExtensionType: UInt16 = 0xf2ee
    /// `last_resort` KeyPackage extension (RFC 9420 §17.3 registry; draft-ietf-mls-extensions).
    package static let lastResortExtensionType: UInt16 = 0x000a
    /// SelfRemove proposal (draft-ietf-mls-extensions §3.6).
    package static let selfRemoveProposalType: UInt16 = 0x000a
    /// `required_capabilities` GroupContext extension (RFC 9420 §11.1).
    package static let requiredCapabilitiesExtensionType: UInt16 = 0x0003
    /// `ratchet_tree` GroupInfo extension (RFC 9420 §12.4.3.3); Welcomes always carry it.
    package static let ratchetTreeExtensionType: UInt16 = 0x0002

    /// Extension types a member's leaf lists in `capabilities.extensions` (besides GREASE).
    package static let supportedExtensions: [UInt16] = [lastResortExtensionType, groupDataExtensionType]
    /// Proposal types a member's leaf lists in `capabilities.proposals` (besides GREASE).
    package static let supportedProposals: [UInt16] = [selfRemoveProposalType]
    /// Extension types every group's `required_capabilities` names.
    package static let requiredGroupContextExtensions: [UInt16] = [groupDataExtensionType]

    /// Kind of a group event (MIP-03).
    package static let groupEventKind = 445
    /// Kind of a Welcome rumor (MIP-02); only ever sent inside a NIP-59 gift wrap.
    package static let welcomeKind = 444
    /// Kind of a chat message: the rumor inside an application message (PROTOCOL.md §5.5).
    public static let chatMessageKind = 9

    /// MLS-Exporter label of the kind-445 content key (MIP-03).
    package static let groupEventExporterLabel = "marmot"
    /// MLS-Exporter context of the kind-445 content key (MIP-03).
    package static let groupEventExporterContext: [UInt8] = Array("group-event".utf8)
    /// Length of the kind-445 content key: a ChaCha20-Poly1305 key.
    package static let groupEventKeyLength = 32

    /// Epochs back a receiver tries when the current key does not open a kind-445 event (MDK's
    /// lookback, and the epochs it keeps; PROTOCOL.md §5.4). The one window: the engine retains
    /// this many past epochs (``MLSGroupState/retainedEpochLimit``) and a group as many rollback
    /// snapshots (§5.9), and the seen log as many epochs of entries (``MarmotSeenLog``).
    package static let epochLookback = 5
    /// A kind-445 event whose content is longer than this (bytes) is refused before any other
    /// check (`too_large`): the default event budget (PROTOCOL.md §5.4, §5.11), so no event made
    /// within it is. A receiver given a larger budget (`MarmotGroup.ingest(event:now:budget:)`)
    /// takes what that budget lets a sender make: the receive bound follows the send bound.
    package static let maxGroupEventContentBytes = EventBudget.defaultMaxEventBytes
    /// At most this many losing fork branches per group are kept in memory for a later decision
    /// (PROTOCOL §5.13): each costs one AEAD open per event buffered while it is kept.
    package static let losingBranchLimit = 4
    /// At most this many kind-445 events wait per group for a key (PROTOCOL.md §5.9).
    package static let bufferedEventLimit = 256
    /// At most this many bytes of kind-445 event JSON wait per group for a key (PROTOCOL.md §5.9).
    package static let bufferedByteLimit = 1024 * 1024
    /// A kind-445 event more than this far in the future is refused (seconds).
    package static let maxFutureSkew: Int64 = 300
    /// A kind-445 event older than this is refused (seconds; 45 days).
    package static let maxEventAge: Int64 = 45 * 24 * 60 * 60

    /// GREASE values (RFC 9420 §13.5): `0x0A0A`, `0x1A1A`, ..., `0xEAEA`. Receivers ignore them.
    package static func isGrease(_ value: UInt16) -> Bool {
        value & 0x0f0f == 0x0a0a && (value >> 8) == (value & 0xff)
    }
}

extension MarmotProfile {
    /// The `required_capabilities` GroupContext extension a new Marmot group carries (RFC 9420
    /// §11.1): extensions `[0xf2ee]`, `proposals` (MDK: `[0x000a]` when every invitee supports
    /// SelfRemove), no credential types.
    package static func requiredCapabilities(proposals: [UInt16] = supportedProposals) -> MLSExtension {
        var w = TLSWriter(capacity: 16)
        w.writeVector { v in for t in requiredGroupContextExtensions { v.writeUInt16(t) } }
        w.writeVector { v in for t in proposals { v.writeUInt16(t) } }
        w.writeVector { _ in }
        return MLSExtension(type: requiredCapabilitiesExtensionType, data: w.bytes)
    }
}

extension MarmotProfile {
    /// The `app_data_update` proposal (draft-ietf-mls-extensions-10; `foundation/registries.md`).
    package static let appDataUpdateProposalType: UInt16 = 0x0008

    /// What a current-profile leaf lists in `capabilities.extensions` (MDK v0.9.14
    /// `crates/cgka-engine/src/capabilities.rs:27` `leaf_capabilities`): `app_data_dictionary` and
    /// the agent-text-stream `receive` role marker `0xf2d1`, which MDK's app requires of every
    /// invitee of the groups it creates (`group_lifecycle.rs` `required_role_caps`). InviteKit
    /// streams nothing, so it claims neither `send` (`0xf2d2`) nor `fanout` (`0xf2d4`).
    /// MDK also lists `required_capabilities` (`0x0003`), a default type; so do we.
    package static let currentSupportedExtensions: [UInt16] = [requiredCapabilitiesExtensionType, AppDataDictionary.extensionType,
                                                               AgentTextStreamPolicyV1.receiveRoleExtension]
    /// What a current-profile leaf lists in `capabilities.proposals`: AppDataUpdate, SelfRemove.
    package static let currentSupportedProposals: [UInt16] = [appDataUpdateProposalType, selfRemoveProposalType]

    /// The `required_capabilities` of a current-profile group (MDK v0.9.14 `capabilities.rs:65`):
    /// extensions `[0x0006]`, proposals `[0x0008, 0x000a]`, no credential types.
    package static func currentRequiredCapabilities() -> MLSExtension {
        RequiredCapabilities(extensionTypes: [AppDataDictionary.extensionType], proposalTypes: currentSupportedProposals,
                             credentialTypes: []).asExtension
    }
}
