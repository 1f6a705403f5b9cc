/// What a member made of one kind-445 group event, in terms both implementations share.
enum InteropOutcome: Equatable, CustomStringConvertible {
    /// An application message: the inner event's author and content.
    case message(sender: String, content: String)
    /// A commit, applied.
    case commit
    /// A proposal, stored (or committed right away by an admin, as MDK does with a leave).
    case proposal
    /// Refused or unreadable, with the implementation's reason.
    case rejected(String)

    var isMessage: Bool { if case .message = self { return true } else { return false } }

    var description: String {
        switch self {
        case let .message(sender, content): return "message from \(sender.prefix(8)): \(content)"
        case .commit: return "commit"
        case .proposal: return "proposal"
        case let .rejected(reason): return "rejected: \(reason)"
        }
    }
}
