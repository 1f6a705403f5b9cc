/// The outcome of a batch: what succeeded and every input that failed, each with its error.
/// Nothing is dropped silently (PROTOCOL.md §2.4: batches never fail whole for one bad item).
public struct BatchResult<Success, Input>: Sendable where Success: Sendable, Input: Sendable {
    public struct Failure: Sendable {
        public let input: Input
        public let error: any Error
        public init(input: Input, error: any Error) { self.input = input; self.error = error }
    }

    public var succeeded: [Success] = []
    public var failed: [Failure] = []

    public init() {}

    public var successCount: Int { succeeded.count }
    public var failureCount: Int { failed.count }
    public var total: Int { succeeded.count + failed.count }
}
