import XCTest
@testable import InviteKitBench
import InviteKitCrypto
import InviteKitMLS

/// The bench row `group-scale largest group a joiner can enter` runs a join at each size it tries
/// (``LargestJoinableGroup``). A small budget keeps the trees small enough for a debug build; the
/// same code answers for the default 64 KiB one.
final class LargestJoinableGroupTests: XCTestCase {
    func testTheAnswerEntersOneMoreDoesNotAndALargerBudgetLetsMoreIn() throws {
        let small = try EventBudget(maxEventBytes: 8_192)
        let built = try LargeGroupBenchmarks.Built(size: 48, budget: small)
        // The last Welcome's tree went out of band, as it does at 1,000 members under 64 KiB.
        XCTAssertFalse(built.lastChunks.isEmpty)
        let largest = try LargestJoinableGroup.search(from: built, budget: small)
        XCTAssertGreaterThan(largest, built.size)

        let perMember = Double(built.treeBytes) / Double(built.size)
        let welcome = try XCTUnwrap(built.lastWelcome), joiner = try XCTUnwrap(built.lastKey)
        func join(_ members: Int) throws {
            try LargestJoinableGroup.join(members: members, bytesPerMember: perMember, welcome: welcome, joiner: joiner, built: built,
                                          budget: small, rng: SeededRandom(seed: 3))
        }
        XCTAssertNoThrow(try join(largest))
        // One member more needs one chunk id more than the Welcome has room for.
        XCTAssertThrowsError(try join(largest + 1))

        let larger = try LargestJoinableGroup.search(from: built, budget: EventBudget(maxEventBytes: 16_384))
        XCTAssertGreaterThan(larger, largest)
    }
}
