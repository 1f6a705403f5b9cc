/// The roster after a commit's proposals (applied as updates, then removals, then adds).
struct AppliedRoster {
    var members: [GroupMember]
    var hashes: [[UInt8]]
    /// New index of the committer.
    var committerIndex: Int
    /// New indices of added members, in proposal order, with their KeyPackages.
    var added: [(index: Int, keyPackage: KeyPackage)]
    var removedIdentities: [[UInt8]]
}
