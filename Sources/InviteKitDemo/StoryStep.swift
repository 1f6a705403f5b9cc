/// One line of a story transcript: `step`, `actor`, `ok`, the relevant ids, and readable text.
public struct StoryStep: Sendable {
    public let step: Int
    public let title: String
    public let actor: String
    public let ok: Bool
    /// Event ids, tags, keys (public), epochs: whatever identifies what happened.
    public let ids: [(String, String)]
    /// Human-readable lines (may include a QR code).
    public let text: [String]
}
