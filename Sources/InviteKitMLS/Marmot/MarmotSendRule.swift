/// A rule a member checks on its own Commit before building it and every receiver checks again
/// (PROTOCOL §5.16). The `mls` tool's hidden flags skip one to forge the Commit a member ignoring
/// it would publish, so tests can show every receiver refusing it; nothing else skips them.
package enum MarmotSendRule: Sendable, Hashable {
    /// MIP-03 and `admin-policy-v1.md`: only an admin commits anything but a self-update or
    /// SelfRemoves.
    case admin
    /// `app-components/group-lifecycle-v1.md`: a disbanded group takes no further Commit.
    case lifecycle
}
