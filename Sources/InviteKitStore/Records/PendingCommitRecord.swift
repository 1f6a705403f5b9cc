import InviteKitCrypto

/// A Commit published (or about to be) whose relay `OK` has not come yet. Until it does, the
/// group's stored state stays at the old epoch and no Welcome is released.
public struct PendingCommitRecord: Sendable {
    public enum Status: String, Sendable { case waiting, confirmed, rolledBack = "rolled_back" }

    public var commitEventID: String
    public var groupID: String
    /// The epoch the Commit was built on.
    public var epoch: UInt64
    /// The join request it answers, if any.
    public var requestID: String?
    public var joiner: [UInt8]?
    public var keyPackageEventID: String?
    /// The engine's pending-commit state (opaque, may hold the next epoch's secrets).
    public var payload: SecureBytes
    public var status: Status
    public var createdAt: Int64

    public init(commitEventID: String, groupID: String, epoch: UInt64, requestID: String? = nil, joiner: [UInt8]? = nil,
                keyPackageEventID: String? = nil, payload: SecureBytes, status: Status = .waiting, createdAt: Int64) {
        self.commitEventID = commitEventID; self.groupID = groupID; self.epoch = epoch; self.requestID = requestID
        self.joiner = joiner; self.keyPackageEventID = keyPackageEventID; self.payload = payload; self.status = status
        self.createdAt = createdAt
    }
}
