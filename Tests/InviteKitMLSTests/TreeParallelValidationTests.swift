import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// Leaf signatures of a large received tree are verified on all cores (RFC 9420 §12.4.3.1): every
/// leaf is still checked, and the first bad one is the one reported.
final class TreeParallelValidationTests: XCTestCase {
    func testEveryLeafSignatureIsCheckedInALargeTree() throws {
        let rng = SeededRandom(seed: 12)
        var leaves: [LeafNode] = [], signers: [Ed25519.PrivateKey] = []
        for i in 0..<200 {
            let (leaf, _, sig) = TreeFixture.newMember(rng, name: "m\(i)")
            leaves.append(leaf)
            signers.append(sig)
        }
        let (tree, _) = try RatchetTree.populated(leaves: leaves, signingKeys: signers, groupID: TreeFixture.groupID, rng: rng)
        XCTAssertNoThrow(try tree.validate(suite: TreeFixture.suite, groupID: TreeFixture.groupID, expectedTreeHash: tree.treeHash))
        for bad: UInt32 in [0, 97, 150, 199] {
            var t = tree
            var leaf = try XCTUnwrap(t.leaf(bad))
            leaf.signature[5] ^= 1
            t.setNode(TreeMath.nodeIndex(leaf: bad), .leaf(leaf))
            XCTAssertThrowsError(try t.validate(suite: TreeFixture.suite, groupID: TreeFixture.groupID)) {
                XCTAssertEqual(($0 as? MLSError)?.code, .invalidSignature)
                XCTAssertTrue("\($0)".contains("leaf \(bad)"), "\($0)")
            }
        }
        // Two bad leaves: the lower index is reported, as in a sequential check.
        var t = tree
        for bad: UInt32 in [180, 40] {
            var leaf = try XCTUnwrap(t.leaf(bad))
            leaf.signature[0] ^= 1
            t.setNode(TreeMath.nodeIndex(leaf: bad), .leaf(leaf))
        }
        XCTAssertThrowsError(try t.validate(suite: TreeFixture.suite, groupID: TreeFixture.groupID)) {
            XCTAssertTrue("\($0)".contains("leaf 40"), "\($0)")
        }
    }
}
