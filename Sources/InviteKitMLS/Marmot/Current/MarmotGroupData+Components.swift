import InviteKitCrypto

/// The current profile's GroupContext (PROTOCOL §5.12.4; `shared/marmot/v2/protocol-core/group-setup.md`;
/// MDK v0.9.14 `crates/cgka-engine/src/app_components.rs:40-50, 98-160, 1021-1120`).
extension MarmotGroupData {
    /// Component ids a current-profile GroupContext may hold state for; any other required id is
    /// refused, as MDK refuses unknown required components.
    static let knownGroupComponents: Set<UInt16> = [
        ComponentID.groupProfile, ComponentID.blossomImage, ComponentID.adminPolicy, ComponentID.nostrRouting,
        ComponentID.messageRetention, ComponentID.agentTextStream, ComponentID.avatarURL, ComponentID.encryptedMediaV2,
        ComponentID.lifecycle, ComponentID.inviteLinks, ComponentID.inviteKitTreeChunks,
    ]

    /// `true` when the group negotiated InviteKit's out-of-band ratchet tree (PROTOCOL §5.11): its
    /// required components name ``ComponentID/inviteKitTreeChunks``, so every member supports it.
    public var outOfBandTree: Bool { profile == .current && requiredComponents.contains(ComponentID.inviteKitTreeChunks) }

    /// Components a GroupContext may hold state for without requiring them: the image ones, as
    /// marmot-app adds a group image (MDK v0.9.14 `marmot-app/src/client/mod.rs:1241-1260`).
    static let optionalGroupComponents: Set<UInt16> = [ComponentID.blossomImage, ComponentID.avatarURL]

    /// The ids this data writes required state for, with `0x8009`: a new group's required list.
    var componentsWithState: ComponentsList {
        var ids: [UInt16] = [ComponentID.accountIdentityProof, ComponentID.groupProfile, ComponentID.adminPolicy, ComponentID.nostrRouting]
        if retentionSeconds != nil { ids.append(ComponentID.messageRetention) }
        if lifecycle != nil { ids.append(ComponentID.lifecycle) }
        if inviteLinks != nil { ids.append(ComponentID.inviteLinks) }
        ids += carriedComponents.keys.filter { !Self.optionalGroupComponents.contains($0) }
        if requiredComponents.contains(ComponentID.inviteKitTreeChunks) { ids.append(ComponentID.inviteKitTreeChunks) }
        return ComponentsList(ids)
    }

    /// The GroupContext dictionary: the required list and each component's state.
    public func appDataDictionary() throws -> AppDataDictionary {
        guard profile == .current else { throw MLSError(.profileMismatch, "a MIP-profile group has no app components") }
        try validateComponents()
        var d = AppDataDictionary()
        d.set(ComponentID.appComponents, requiredComponents.encoded)
        d.set(ComponentID.groupProfile, try GroupProfileV1(name: name, description: description).encoded)
        d.set(ComponentID.adminPolicy, try AdminPolicyV1(admins: admins).encoded)
        d.set(ComponentID.nostrRouting, try NostrRoutingV1(nostrGroupID: nostrGroupID, relays: relays).encoded)
        if imageHash != nil || requiredComponents.contains(ComponentID.blossomImage) {
            d.set(ComponentID.blossomImage, BlossomImageV1.encode(try image()))
        }
        if let retentionSeconds { d.set(ComponentID.messageRetention, MessageRetentionV1(seconds: retentionSeconds).encoded) }
        if let lifecycle { d.set(ComponentID.lifecycle, lifecycle.encoded) }
        if let inviteLinks { d.set(ComponentID.inviteLinks, inviteLinks.encoded) }
        for (id, bytes) in carriedComponents { d.set(id, bytes) }
        if requiredComponents.contains(ComponentID.inviteKitTreeChunks) { d.set(ComponentID.inviteKitTreeChunks, []) }
        return d
    }

    func image() throws -> BlossomImageV1? {
        guard let imageHash else { return nil }
        guard let imageKey, let imageNonce, let imageUploadKey, let imageMediaType else {
            throw MLSError(.invalidGroupData, "a current-profile group image needs key, nonce, upload key and media type")
        }
        return try BlossomImageV1(hash: imageHash, key: imageKey, nonce: imageNonce, uploadKey: imageUploadKey, mediaType: imageMediaType)
    }

    /// The current profile's rules, as MDK v0.9.14 checks a GroupContext
    /// (`app_components.rs:1021-1120`): the required list names `0x8003` and `0x8009`, never
    /// `0x8008`, and only known ids; state for every required id but `0x8009`, and none for an
    /// id that is not required; each component's bytes valid.
    func validateComponents() throws {
        let required = requiredComponents
        guard required.contains(ComponentID.adminPolicy), required.contains(ComponentID.accountIdentityProof) else {
            throw MLSError(.invalidGroupData, "required components must name 0x8003 and 0x8009")
        }
        guard !required.contains(ComponentID.encryptedMediaV1) else {
            throw MLSError(.invalidGroupData, "encrypted media v1 (0x8008) is forbidden in a current-profile group")
        }
        for id in required.ids where id != ComponentID.accountIdentityProof && !Self.knownGroupComponents.contains(id) {
            throw MLSError(.invalidGroupData, "unknown required component \(ComponentID.hex(id))")
        }
        let state = componentsWithState.ids.filter { !Self.optionalGroupComponents.contains($0) }
        let requiredWithState = required.ids.filter { !Self.optionalGroupComponents.contains($0) }
        guard state == requiredWithState else {
            throw MLSError(.invalidGroupData, "component state does not match the required list")
        }
        _ = try GroupProfileV1(name: name, description: description)
        _ = try AdminPolicyV1(admins: admins)
        _ = try NostrRoutingV1(nostrGroupID: nostrGroupID, relays: relays)
        _ = try image()
        for (id, bytes) in carriedComponents { try Self.checkCarried(id, bytes) }
    }

    static func checkCarried(_ id: UInt16, _ bytes: [UInt8]) throws {
        switch id {
        case ComponentID.agentTextStream: _ = try AgentTextStreamPolicyV1(decoding: bytes)
        case ComponentID.encryptedMediaV2: _ = try EncryptedMediaPolicyV2(decoding: bytes)
        case ComponentID.avatarURL:
            guard bytes.count <= 4096 else { throw MLSError(.invalidComponent, "avatar URL component above 4096 bytes") }
        // Invite links (PROTOCOL §5.14.1): carried so a joiner can check its consented preview.
        case ComponentID.inviteLinks: _ = try InviteLinksV1(decoding: bytes)
        default: throw MLSError(.invalidGroupData, "component \(ComponentID.hex(id)) is not carried")
        }
    }

    /// Reads a current-profile GroupContext's dictionary. `extensions` is the whole GroupContext,
    /// whose `required_capabilities` must name `app_data_dictionary` and both proposals.
    init(components d: AppDataDictionary, extensions: [MLSExtension]) throws {
        guard let raw = d[ComponentID.appComponents] else { throw MLSError(.invalidGroupData, "no required component list") }
        let required = try ComponentsList(decoding: raw)
        guard d[ComponentID.accountIdentityProof] == nil else {
            throw MLSError(.invalidGroupData, "0x8009 is a leaf component and may not be in a GroupContext")
        }
        for e in d.entries where e.id != ComponentID.appComponents && !required.contains(e.id) && !Self.optionalGroupComponents.contains(e.id) {
            throw MLSError(.invalidGroupData, "state for component \(ComponentID.hex(e.id)), which the group does not require")
        }
        for id in required.ids where id != ComponentID.accountIdentityProof && d[id] == nil {
            throw MLSError(.invalidGroupData, "no state for required component \(ComponentID.hex(id))")
        }
        guard let capsRaw = extensions.first(where: { $0.extensionType == RequiredCapabilities.extensionType }),
              let caps = try? RequiredCapabilities(tlsSerialized: capsRaw.data),
              caps.extensionTypes.contains(AppDataDictionary.extensionType),
              caps.proposalTypes.contains(MarmotProfile.appDataUpdateProposalType) else {
            throw MLSError(.invalidGroupData, "required_capabilities must name app_data_dictionary and app_data_update")
        }
        guard let profileBytes = d[ComponentID.groupProfile], let adminBytes = d[ComponentID.adminPolicy],
              let routingBytes = d[ComponentID.nostrRouting] else {
            throw MLSError(.invalidGroupData, "a current-profile group needs 0x8001, 0x8003 and 0x8004")
        }
        let p = try GroupProfileV1(decoding: profileBytes)
        let routing = try NostrRoutingV1(decoding: routingBytes)
        self.init(profile: .current, nostrGroupID: routing.nostrGroupID, name: p.name, description: p.description,
                  admins: try AdminPolicyV1(decoding: adminBytes).admins, relays: routing.relays)
        requiredComponents = required
        if let bytes = d[ComponentID.blossomImage], let image = try BlossomImageV1.decode(bytes) {
            imageHash = image.hash
            imageKey = image.key
            imageNonce = image.nonce
            imageUploadKey = image.uploadKey
            imageMediaType = image.mediaType
        }
        retentionSeconds = try d[ComponentID.messageRetention].map { try MessageRetentionV1(decoding: $0).seconds }
        lifecycle = try d[ComponentID.lifecycle].map { try GroupLifecycleV1(decoding: $0) }
        inviteLinks = try d[ComponentID.inviteLinks].map { try InviteLinksV1(decoding: $0) }
        for id in [ComponentID.agentTextStream, ComponentID.encryptedMediaV2, ComponentID.avatarURL] {
            if let bytes = d[id] { carriedComponents[id] = bytes }
        }
        try validateComponents()
    }

    /// The required list a changed copy of `old` must carry: the old list, plus every component
    /// the change gave state (retention switched on, an image set). A component is never dropped
    /// from the list (MDK refuses to shrink `app_components`; `admin-policy-v1.md`).
    func requiredComponentsAfterChange(from old: MarmotGroupData) -> ComponentsList {
        guard profile == .current else { return requiredComponents }
        return ComponentsList(old.requiredComponents.ids + componentsWithState.ids)
    }

    /// The AppDataUpdate proposals that turn `self` into `new` (current profile): one `update` with
    /// the whole new state per component whose bytes differ, one `remove` per component dropped
    /// (`app-components/README.md`, "Common Rules").
    func appDataUpdates(to new: MarmotGroupData) throws -> [AppDataUpdate] {
        guard profile == .current, new.profile == .current else { throw MLSError(.profileMismatch, "a group keeps its profile") }
        let old = try appDataDictionary(), next = try new.appDataDictionary()
        var out: [AppDataUpdate] = []
        for e in next.entries where old[e.id] != e.data { out.append(AppDataUpdate(componentID: e.id, operation: .update(e.data))) }
        for e in old.entries where next[e.id] == nil { out.append(AppDataUpdate(componentID: e.id, operation: .remove)) }
        return out
    }
}
