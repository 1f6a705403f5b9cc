// Must compile: what an app does with `import InviteKit` alone (scripts/check-app-imports.py).
import InviteKit

func app() async throws {
    let home = StoreHome(directory: "/tmp/app-import-check")
    if !home.exists { try InviteKitNode.initialize(home: home, relays: ["wss://relay.example.com"]) }
    let node = try InviteKitNode(home: home)
    let group: NodeGroup = try await node.createGroup(name: "club")
    let _: StoredInvite = try await node.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600)
    let history: [StoredMessage] = try await node.history(of: group.id)
    let _: Secp256k1.XOnlyPublicKey? = history.first?.senderKey
    let runner: Task<Void, any Error> = node.runInBackground()
    for await message in node.feed(since: 0) { _ = message.sequence; break }
    runner.cancel()
    let _: [PendingJoinRecord] = try await node.pendingJoins()
    let _: [PendingApprovalRecord] = try await node.pendingApprovals(groupID: group.id)
    let _: RetryPolicy = node.configuration.retryPolicy
    await node.shutdown()
}
