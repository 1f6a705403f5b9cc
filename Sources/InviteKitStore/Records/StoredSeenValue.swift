/// One row of `group_seen` (docs/storage.md §6): a value of a group's seen log, opaque to the store.
package struct StoredSeenValue: Sendable, Hashable {
    /// The MLS epoch of the event the value records.
    package var epoch: UInt64
    /// 0: an event id; 1: the SHA-256 of an event's content.
    package var kind: Int
    /// 32 bytes.
    package var value: [UInt8]
    /// The value's place in the group's log, oldest first.
    package var sequence: UInt64

    package init(epoch: UInt64, kind: Int, value: [UInt8], sequence: UInt64) {
        self.epoch = epoch; self.kind = kind; self.value = value; self.sequence = sequence
    }
}
