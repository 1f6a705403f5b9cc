import InviteKitMLS

/// InviteKit's side of the scenarios: the Marmot binding (``MarmotGroup``) over the RFC 9420
/// engine (``MLSGroupState``).
typealias InviteKitMember = MarmotGroupMember<MLSGroupState>
