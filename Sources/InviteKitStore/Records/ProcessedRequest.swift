/// A join request this node already decided: never decided, nor answered, twice.
public struct ProcessedRequest: Sendable, Hashable {
    /// The outcome recorded with it (`accepted`, `rejected:<type>`, `dropped:<code>`, `ignored:<reason>`).
    public var rumorID: String
    public var wrapID: String?
    public var outcome: String
    public var groupID: String?
    public var processedAt: Int64

    public init(rumorID: String, wrapID: String?, outcome: String, groupID: String?, processedAt: Int64) {
        self.rumorID = rumorID; self.wrapID = wrapID; self.outcome = outcome; self.groupID = groupID; self.processedAt = processedAt
    }
}
