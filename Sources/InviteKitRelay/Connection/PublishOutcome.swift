/// What happened to one `EVENT` sent to one relay.
public enum PublishOutcome: Sendable, Hashable {
    /// The relay holds the event (`OK true`, or a `duplicate:` answer: see ``OKMessage/isStored``).
    case accepted(OKMessage)
    /// The relay refused it (`OK false`); the message and its machine-readable prefix say why.
    case rejected(OKMessage)
    /// No `OK` within the timeout. `wasSent == false`: the client was offline the whole time and the
    /// event never left the queue (it is withdrawn, never sent later). `true`: it was written to the
    /// socket at least once; the relay may or may not have stored it.
    case timedOut(wasSent: Bool)
    /// The client could not take the event at all (closed client, invalid URL).
    case failed(RelayError)

    public var isAccepted: Bool { if case .accepted = self { return true } else { return false } }

    /// The outcome as an error, `nil` when accepted.
    public var error: RelayError? {
        switch self {
        case .accepted: return nil
        case .rejected(let ok):
            return RelayError(.rejected, ok.message.isEmpty ? "rejected without a reason" : ok.message)
        case .timedOut(let sent):
            return RelayError(.timedOut, sent ? "no OK from the relay in time" : "relay unreachable; the event was never sent")
        case .failed(let e): return e
        }
    }
}
