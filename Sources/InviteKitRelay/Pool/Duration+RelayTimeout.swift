extension Duration {
    /// How long a publish waits for a relay's `OK`, and a fetch for its `EOSE`, unless the caller
    /// says otherwise (PROTOCOL.md §9.3).
    public static let relayTimeout: Duration = .seconds(10)
}
