/// How long ``NodeHome/perform(_:settle:timeout:eventBudget:)`` waits after the request's answer.
public enum NodeHomeSettle: Sendable, Hashable {
    /// Until the answer (an id, a tag, a URL): the work is queued in the home.
    case answered
    /// Until the event the answer names reached a relay or failed on every one (a message, a
    /// leave request, a join request).
    case published
    /// Until the request's outcome: a message's or leave request's delivery, a Commit applied or
    /// rolled back (and, when this process drove the node, the events it released sent), a join
    /// answered. Requests that only change the home settle with their answer.
    case decided
}
