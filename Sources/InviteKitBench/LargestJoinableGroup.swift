import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// The row `group-scale largest group a joiner can enter`: the most members whose join still
/// fits the default 64 KiB budget (PROTOCOL §5.11), found by running a join's event code at each
/// size a binary search tries, instead of extrapolating (as this row did before issue 31).
///
/// What grows with the group is the ratchet tree; a one-member Welcome whose tree is out of band
/// does not grow, but its `tree_chunks` tag names one 64-hex id per chunk. At each size the
/// committer's code seals a tree of that many bytes into chunk events (each checked against the
/// budget; over `RatchetTreeChunks.maxChunks` or `maxTreeBytes` it refuses), re-sends the built
/// group's real last Welcome naming those chunks and gift-wraps it (checked against the budget,
/// and its seal against standard NIP-44 readers); then the joiner's code unwraps it, reads the
/// tag, checks every chunk event and opens the chunks back into the tree. The one figure not
/// measured at each size is the tree's bytes per member, taken from the group actually built:
/// serialized trees grow by a fixed amount per leaf and parent node.
enum LargestJoinableGroup {
    /// `budget` is the default one in the bench; a test passes a smaller one to keep trees small.
    static func search(from built: LargeGroupBenchmarks.Built, budget: EventBudget = .standard) throws -> Int {
        guard let welcome = built.lastWelcome, let joiner = built.lastKey else { throw BenchFailure("the built group has no last Welcome") }
        let bytesPerMember = Double(built.treeBytes) / Double(built.size)
        let rng = SeededRandom(seed: 94)
        func enters(_ members: Int) -> Bool {
            (try? join(members: members, bytesPerMember: bytesPerMember, welcome: welcome, joiner: joiner, built: built, budget: budget, rng: rng)) != nil
        }
        // The built group was entered for real; past maxTreeBytes the committer refuses the tree.
        var entered = built.size, refused = Int(Double(RatchetTreeChunks.maxTreeBytes) / bytesPerMember) + 1
        guard enters(entered) else { throw BenchFailure("a joiner cannot enter the \(built.size)-member group re-sent") }
        while refused - entered > 1 {
            let mid = entered + (refused - entered) / 2
            if enters(mid) { entered = mid } else { refused = mid }
        }
        return entered
    }

    /// One join of a `members`-member group's tree, through the committer's and the joiner's code.
    static func join(members: Int, bytesPerMember: Double, welcome: MarmotWelcomeRumor.Parsed, joiner: Secp256k1.PrivateKey,
                     built: LargeGroupBenchmarks.Built, budget: EventBudget, rng: RandomSource) throws {
        let now = LargeGroupBenchmarks.now
        // The bytes do not matter to the chunk code (it seals and opens them), only their count.
        let tree = [UInt8](repeating: 0x5a, count: Int((Double(members) * bytesPerMember).rounded(.up)))
        let treeHash = SHA256.hash(tree)
        let welcomeSecret = SecureBytes(copying: rng.bytes(32))
        let suite = built.admin.state.cipherSuite
        let made = try RatchetTreeChunks.events(tree: tree, treeHash: treeHash, welcomeSecret: welcomeSecret, suite: suite, budget: budget,
                                                now: now, rng: rng)
        let rumor = try MarmotWelcomeRumor.make(welcomeMessage: welcome.welcomeMessage, keyPackageEventID: welcome.keyPackageEventID,
                                                relays: welcome.relays, committer: built.adminKey.publicKey, createdAt: now,
                                                treeChunks: made.reference, profile: built.admin.profile)
        let wrap = try GiftWrap.wrap(rumor, from: built.adminKey, to: joiner.publicKey, now: now, using: rng)
        try budget.check(wrap, "the Welcome gift wrap")
        guard EventBudget.sealJSONBytes(rumorJSONBytes: rumor.jsonBytes.count) <= EventBudget.standardNIP44MaxPlaintextBytes else {
            throw BenchFailure("the Welcome's seal is over what standard NIP-44 readers open")
        }
        let parsed = try MarmotWelcomeRumor.parse(try GiftWrap.unwrap(wrap, recipient: joiner).rumor)
        guard let reference = parsed.treeChunks else { throw BenchFailure("the Welcome lost its tree_chunks tag") }
        let sealed = try RatchetTreeChunks.sealedChunks(made.events, for: reference)
        let opened = try RatchetTreeChunks.open(sealed, treeHash: reference.treeHash, treeLength: reference.treeLength,
                                                welcomeSecret: welcomeSecret, suite: suite)
        guard opened == tree else { throw BenchFailure("the chunks did not open into the tree") }
    }
}
