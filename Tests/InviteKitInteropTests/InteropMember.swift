import InviteKitNostr

/// One group member as the scenarios see it, whichever implementation backs it (MDK through the
/// worker, or InviteKit's engine). Groups are named by their nostr_group_id in hex (the kind-445
/// `h` tag), which every member shares. Operations that change the group leave a pending commit:
/// the caller publishes it and then calls ``mergePendingCommit(group:)``, which returns the
/// Welcome gift wraps (Marmot: Welcomes go out only after relays accepted the commit).
protocol InteropMember: AnyObject {
    var label: String { get }
    /// Nostr public key, hex.
    var pubkey: String { get }

    func keyPackageEvent(relays: [String]) throws -> NostrEvent
    func createGroup(name: String, relays: [String], admins: [String], inviting keyPackages: [NostrEvent]) throws -> (group: String, change: InteropChange)
    func addMembers(_ keyPackages: [NostrEvent], group: String) throws -> InteropChange
    func removeMembers(_ pubkeys: [String], group: String) throws -> InteropChange
    func selfUpdate(group: String) throws -> InteropChange
    @discardableResult
    func mergePendingCommit(group: String) throws -> [InteropChange.Welcome]
    /// Opens a gift-wrapped Welcome and joins; returns the group id.
    func join(welcome wrap: NostrEvent) throws -> String
    /// A kind-9 application message inside a kind-445 event.
    func send(_ content: String, group: String) throws -> NostrEvent
    func process(_ event: NostrEvent) throws -> InteropOutcome
    func members(group: String) throws -> Set<String>
    func epoch(group: String) throws -> UInt64
}
