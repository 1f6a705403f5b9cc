/// What ``MarmotGroup/ingest(event:now:)`` did with one kind-445 event, and what the caller must
/// save: the group's state (``MarmotGroup/serialized()``) only when ``stateChanged``, its buffer
/// (``MarmotGroup/buffer``, saved on its own) only when ``bufferChanged``, its seen log
/// (``MarmotGroup/seenLog``: the rows in its ``MarmotSeenLog/changes``, or the whole log) only when
/// ``seenChanged``. An event nobody can open changes none but the buffer; a duplicate, none.
public struct MarmotReceipt: Sendable {
    /// The event's outcome, then those of buffered events it made readable, then evictions.
    public var outcomes: [MarmotOutcome]
    /// The serialized group state differs from before the call.
    public var stateChanged: Bool
    /// The buffer differs from before the call.
    public var bufferChanged: Bool
    /// The seen log recorded events (or forgot some): ``MarmotSeenLog/changes`` holds the rows.
    public var seenChanged: Bool
    /// The id of the event each of ``outcomes`` is about, index for index (empty when the maker
    /// of the receipt did not say): a buffered event made readable has its own outcome.
    public var outcomeEventIDs: [String]

    public init(outcomes: [MarmotOutcome], stateChanged: Bool, bufferChanged: Bool, seenChanged: Bool = false, outcomeEventIDs: [String] = []) {
        self.outcomes = outcomes
        self.outcomeEventIDs = outcomeEventIDs
        self.stateChanged = stateChanged
        self.bufferChanged = bufferChanged
        self.seenChanged = seenChanged
    }

    /// The id of the event `outcomes[index]` is about; `fallback` when the receipt does not say.
    public func eventID(ofOutcomeAt index: Int, fallback: String) -> String {
        outcomeEventIDs.indices.contains(index) ? outcomeEventIDs[index] : fallback
    }
}
