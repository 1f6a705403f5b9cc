/// The rumor kinds InviteKit puts inside NIP-59 gift wraps.
public enum SealedMessageKind: Int, Sendable, CaseIterable {
    /// An MLS Welcome (Marmot / MIP-02): content base64 of the Welcome, tags `e`, `relays`, `encoding`.
    case welcome = 444
    /// A join request in Whistle's JSON form.
    case joinRequest = 1080
    /// An `invite_join_error` content type: InviteKit's choice, next to Whistle's 1080 and
    /// unassigned in the NIPs kind list. The rumor names the content type in a tag and carries
    /// the codec's bytes (UTF-8 JSON) as its content.
    case inviteJoinError = 1081

    /// Tag that names the content type of a content-type rumor.
    public static let contentTypeTag = "content-type"
}
