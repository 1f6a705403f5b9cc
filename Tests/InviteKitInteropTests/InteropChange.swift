import InviteKitNostr

/// What a group operation produced: the kind-445 commit (nil for group creation) and, when the
/// implementation knows them before the merge (MDK does), the Welcome gift wraps. Scenarios take
/// the Welcomes from ``InteropMember/mergePendingCommit(group:)``, which every implementation returns.
struct InteropChange {
    struct Welcome {
        /// The new member's Nostr public key (hex).
        let recipient: String
        /// The kind-1059 gift wrap around the kind-444 rumor.
        let wrap: NostrEvent
    }
    var commit: NostrEvent?
    var welcomes: [Welcome]

    func welcome(for pubkey: String) -> NostrEvent? { welcomes.first { $0.recipient == pubkey }?.wrap }
}

extension Array where Element == InteropChange.Welcome {
    func wrap(for pubkey: String) -> NostrEvent? { first { $0.recipient == pubkey }?.wrap }
}
