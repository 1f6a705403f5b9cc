import InviteKitNostr

/// What a group operation produced: the kind-445 commit (nil for group creation) and one
/// gift-wrapped Welcome per new member, already addressed.
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
