/// One line of a story transcript: `step`, `actor`, `ok`, the relevant ids, and readable text.
package struct StoryStep: Sendable {
    package let step: Int
    package let title: String
    package let actor: String
    package let ok: Bool
    /// Event ids, tags, keys (public), epochs: whatever identifies what happened.
    package let ids: [(String, String)]
    /// Human-readable lines (may include a QR code).
    package let text: [String]
}
