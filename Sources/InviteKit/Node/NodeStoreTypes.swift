import InviteKitStore

// What an app reads from a node's store, named in InviteKit because InviteKit no longer
// re-exports InviteKitStore (issue 30): the store itself (`Store`, transactions, `HomeLock`,
// `IdentityKeyFile`) is `package`, reachable only through `InviteKitNode`.

/// A node's home directory: its database, identity key file and lock. An app names one and hands
/// it to ``InviteKitNode``; it opens nothing itself.
public typealias StoreHome = InviteKitStore.StoreHome
/// One message of a group's history (``InviteKitNode/history(of:after:before:limit:)``,
/// ``NodeEvent/messageReceived(_:)``).
public typealias StoredMessage = InviteKitStore.StoredMessage
/// One invite this node made (``InviteKitNode/createInvite(groupID:format:singleUse:expiresIn:)``).
public typealias StoredInvite = InviteKitStore.StoredInvite
/// One join this node started (``InviteKitNode/startJoin(invite:name:)``, ``InviteKitNode/pendingJoins()``).
public typealias PendingJoinRecord = InviteKitStore.PendingJoinRecord
/// One Whistle join request waiting for an admin (``InviteKitNode/pendingApprovals(groupID:)``).
public typealias PendingApprovalRecord = InviteKitStore.PendingApprovalRecord
/// The outbound queue's retry rules (``InviteKitNode/Configuration/retryPolicy``).
public typealias RetryPolicy = InviteKitStore.RetryPolicy
/// An own Commit's state (``NodeHome/commitStatus(of:)``): `waiting` for a relay's answer,
/// `confirmed` and applied, or `rolled_back`.
public typealias PendingCommitStatus = InviteKitStore.PendingCommitRecord.Status
/// One event's status over all its relays (``NodeHome/deliveryStatus(of:)``).
public typealias EventDeliverySummary = InviteKitStore.EventDeliverySummary
