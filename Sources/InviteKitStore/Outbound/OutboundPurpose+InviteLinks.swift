extension OutboundPurpose {
    /// An invite link's kind 30444 preview descriptor (PROTOCOL §5.14.12), gated on the policy
    /// Commit that activates its entry.
    public static let inviteLinkDescriptor: OutboundPurpose = "invite_descriptor"
    /// A gift-wrapped kind 460 status to an invite-link requester (PROTOCOL §5.14.12).
    public static let inviteLinkStatus: OutboundPurpose = "invite_status"
}
