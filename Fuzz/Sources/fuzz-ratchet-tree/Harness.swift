import EngineFixture
import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS

// The `ratchet_tree` extension (RFC 9420 §12.4.3.3) as a joiner reads it.
//  - RatchetTree: a tree that parses re-encodes byte for byte (no trailing blank, presence bytes
//    0/1 only); its hash and validate() never trap; validate() against the fixture's tree hash
//    passes only for the fixture's own tree.
//  - RatchetTreeExtension: parse → serialize is exact, and it agrees with RatchetTree (up to the
//    blank padding RatchetTree adds) on every tree RatchetTree accepts; that tree is full.
let state = EngineFixture.group.bob.state
let fixtureTree = state.tree.tlsSerialized
let fixtureHash = state.tree.treeHash

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    let ext = try? RatchetTreeExtension(tlsSerialized: bytes)
    if let ext { invariant(ext.tlsSerialized == bytes, "ratchet_tree extension encoding is not canonical") }
    guard let tree = try? RatchetTree(tlsSerialized: bytes) else { return 0 }
    invariant(tree.tlsSerialized == bytes, "RatchetTree re-encodes differently")
    // RatchetTree pads the list with blanks to a full tree (RFC 9420 §12.4.3.3); the extension
    // keeps it as sent.
    guard let ext else { fatalError("INVARIANT BROKEN: RatchetTree accepted a tree the extension reader refuses") }
    invariant(Array(tree.nodes.prefix(ext.nodes.count)) == ext.nodes && tree.nodes.dropFirst(ext.nodes.count).allSatisfy { $0 == nil },
              "RatchetTree and the extension read different nodes")
    invariant(tree.nodes.count % 2 == 1 && (tree.nodes.count + 1).nonzeroBitCount == 1, "the parsed tree is not a full tree")
    _ = tree.treeHash
    _ = try? tree.validate(suite: state.cipherSuite, groupID: state.groupID)
    if (try? tree.validate(suite: state.cipherSuite, groupID: state.groupID, expectedTreeHash: fixtureHash)) != nil {
        invariant(bytes == fixtureTree, "a tree other than the fixture's matched its tree hash and validated")
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    guard (try? state.tree.validate(suite: state.cipherSuite, groupID: state.groupID, expectedTreeHash: fixtureHash)) != nil else {
        fatalError("fixture tree does not validate")
    }
    emitSeedsIfAsked { [("fixture-tree-2-members", fixtureTree)] }
    return 0
}
