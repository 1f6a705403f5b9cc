// The umbrella module: `import InviteKit` brings every layer but the store. The store is the
// node's alone (issue 30): an app reads it through `InviteKitNode`, and the record types it reads
// are named here (Node/NodeStoreTypes.swift); `Store`, its transactions, the home's lock and the
// identity key file are `package` in InviteKitStore, so no app reaches them.
@_exported import InviteKitCrypto
@_exported import InviteKitNostr
@_exported import InviteKitInvites
@_exported import InviteKitMLS
@_exported import InviteKitRelay
