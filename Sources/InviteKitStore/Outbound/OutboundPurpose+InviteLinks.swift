extension OutboundPurpose {
    /// An invite link's kind 30444 preview descriptor (PROTOCOL §5.14.12), gated on the policy
    /// Commit that activates its entry.
    public static let inviteLinkDescriptor: OutboundPurpose = "invite_descriptor"
    /// The NIP-09 deletion of a retired link's descriptor (PROTOCOL §5.14.15).
    public static let inviteLinkDescriptorDeletion: OutboundPurpose = "invite_descriptor_deletion"
    /// A gift-wrapped kind 460 status to an invite-link requester (PROTOCOL §5.14.12).
    public static let inviteLinkStatus: OutboundPurpose = "invite_status"
}
