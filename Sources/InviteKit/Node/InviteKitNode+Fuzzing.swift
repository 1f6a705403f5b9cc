import InviteKitNostr

/// The inbound handlers, for the fuzz target `fuzz-node-inbound` only (`@_spi(Fuzzing)`): apps
/// never call them; ``InviteKitNode/run()`` does.
extension InviteKitNode {
    /// One kind-445 event as a relay would deliver it.
    @_spi(Fuzzing) public func fuzzGroupEvent(_ event: NostrEvent) throws(InviteKitError) { _ = try InviteKitError.mapping { try handleGroupEvent(event) } }

    /// One gift wrap addressed to this node.
    @_spi(Fuzzing) public func fuzzGiftWrap(_ event: NostrEvent) throws(InviteKitError) { _ = try InviteKitError.mapping { try handleGiftWrap(event) } }
}
