/// The authenticated ordering class of a branch's tip Commit (`convergence.md`, "Candidate
/// branches"): `privileged` exactly when the committer had to be an admin of the parent state for
/// the Commit to be valid, `ordinary` otherwise (a pure self-update, SelfRemove-only commits).
/// Lower sorts first: a privileged tip wins a tie that reaches this rule.
public enum CommitPriority: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    case privileged = 0
    case ordinary = 1

    public static func < (a: CommitPriority, b: CommitPriority) -> Bool { a.rawValue < b.rawValue }

    public var description: String { self == .privileged ? "privileged" : "ordinary" }
}
