import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// TreeKEM and ratchet-tree behaviour beyond the mlswg vectors (RFC 9420 §7).
final class TreeKEMTests: XCTestCase {
    func testGroupGrowsCommitsAndShrinksWithAgreeingViews() throws {
        var g = TreeFixture()
        try g.commit(by: 0, adding: 1)
        try g.commit(by: 1, adding: 3)
        // Members added without a later path from them leave unmerged leaves behind.
        try g.commit(by: 2, adding: 2)
        XCTAssertEqual(g.tree.occupiedLeaves.count, 7)
        try g.commit(by: 4, removing: [1, 3])
        try g.commit(by: 0, adding: 1)   // refills leaf 1, the leftmost blank
        XCTAssertNotNil(g.tree.leaf(1))
        try g.commit(by: 2, removing: [5, 6])
        XCTAssertEqual(g.tree.occupiedLeaves, [0, 1, 2, 4])
        for (leaf, state) in g.states { XCTAssertNoThrow(try state.verifyConsistency(with: g.tree), "leaf \(leaf)") }
    }

    func testCommitSecretsDifferPerCommit() throws {
        var g = TreeFixture()
        let a = try g.commit(by: 0, adding: 2)
        let b = try g.commit(by: 1)
        XCTAssertNotEqual(a, b)
    }

    func testRemovingTheLastMembersTruncates() throws {
        var g = TreeFixture()
        try g.commit(by: 0, adding: 4)
        XCTAssertEqual(g.tree.leafCount, 8)
        try g.commit(by: 0, removing: [4])
        XCTAssertEqual(g.tree.leafCount, 4)
        let decoded = try RatchetTree(tlsSerialized: g.tree.tlsSerialized)
        XCTAssertEqual(decoded, g.tree)
    }

    func testAddRecordsUnmergedLeafOnNonBlankAncestors() throws {
        var g = TreeFixture()
        try g.commit(by: 0, adding: 4)   // 5 members in 8 slots; the path sets root 7
        var t = g.tree
        let (leaf, _, _) = TreeFixture.newMember(g.rng, name: "x")
        let index = t.addLeaf(leaf)
        XCTAssertEqual(index, 5)
        XCTAssertEqual(t.leafCount, 8)
        if let root = t[node: 7]?.parentNode { XCTAssertEqual(root.unmergedLeaves, [5]) } else { XCTFail("root blank") }
        XCTAssertNil(t[node: 9])
        XCTAssertEqual(t.resolution(of: 7), [7, 10])
        XCTAssertEqual(t.resolution(of: 11), [8, 10])
        try t.validate(suite: TreeFixture.suite, groupID: TreeFixture.groupID)
    }

    func testPrivateStateSurvivesSerialization() throws {
        var g = TreeFixture()
        try g.commit(by: 0, adding: 5)
        let state = try XCTUnwrap(g.states[3])
        let bytes = state.serialized()
        let back = try TreePrivateState(serialized: bytes)
        XCTAssertEqual(back.leafIndex, 3)
        XCTAssertEqual(back.serialized().exportBytes(), bytes.exportBytes())
        XCTAssertNoThrow(try back.verifyConsistency(with: g.tree))
        XCTAssertFalse(back.pathKeys.isEmpty)
    }

    func testLeafSignatureBindsGroupAndIndex() throws {
        var g = TreeFixture()
        try g.commit(by: 0, adding: 1)
        let leaf = try XCTUnwrap(g.tree.leaf(0))
        XCTAssertTrue(leaf.verifySignature(groupID: TreeFixture.groupID, leafIndex: 0))
        XCTAssertFalse(leaf.verifySignature(groupID: TreeFixture.groupID, leafIndex: 1))
        XCTAssertFalse(leaf.verifySignature(groupID: Array("other".utf8), leafIndex: 0))
    }

    func testLookupBySignatureKeyAndIdentity() throws {
        var g = TreeFixture()
        try g.commit(by: 0, adding: 2)
        let key = try XCTUnwrap(g.tree.leaf(2)).signatureKey
        XCTAssertEqual(g.tree.leafIndex(signatureKey: key), 2)
        XCTAssertEqual(g.tree.leafIndex(identity: Array("m0".utf8)), 0)
        XCTAssertNil(g.tree.leafIndex(identity: Array("nobody".utf8)))
    }
}
