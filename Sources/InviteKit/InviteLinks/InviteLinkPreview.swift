import InviteKitMLS

/// What opening an invite link shows (``InviteKitNode/previewInviteLink(code:timeout:)``,
/// PROTOCOL §5.14.16): the decoded code and the decrypted, verified preview of its descriptor.
/// Unconfirmed: it says what the link's admins wrote, not who is in the group; nothing was sent
/// and nothing stored to make it.
public struct InviteLinkPreview: Sendable {
    /// The code as decoded (it holds the bearer and the preview key).
    public let code: InviteCodeV1
    /// The preview plaintext, matching the code; pass it to
    /// ``InviteKitNode/joinByInviteLink(code:preview:validFor:)`` after the user's explicit Join.
    public let preview: InvitePreviewV1
    /// The kind 30444 descriptor it came from (the one NIP-01 replacement order selected).
    public let descriptorEventID: String
    /// The code's relays that answered the fetch to its end.
    public let answeredRelays: [String]

    public init(code: InviteCodeV1, preview: InvitePreviewV1, descriptorEventID: String, answeredRelays: [String]) {
        self.code = code; self.preview = preview; self.descriptorEventID = descriptorEventID; self.answeredRelays = answeredRelays
    }
}
