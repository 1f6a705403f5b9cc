/// One relay's `OK` for an event a pool published.
public struct RelayAcceptance: Sendable, Hashable {
    public let relay: String
    public let ok: OKMessage
}
