// The umbrella module: `import InviteKit` brings every layer.
@_exported import InviteKitCrypto
@_exported import InviteKitNostr
@_exported import InviteKitInvites
@_exported import InviteKitMLS
@_exported import InviteKitRelay
@_exported import InviteKitStore
