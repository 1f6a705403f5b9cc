/// The result of applying someone else's commit.
public enum CommitResult: Sendable {
    /// The commit applied; here is the next epoch.
    case applied(GroupState)
    /// The commit removed this member.
    case removed
}
