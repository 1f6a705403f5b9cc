import XCTest
import InviteKitNostr

/// MDK↔MDK through the worker: proves the harness (and the scenario code) before InviteKit takes
/// one side.
final class MDKHarnessTests: XCTestCase {
    var worker: MDKWorker!

    override func setUpWithError() throws { worker = try MDKWorker.startOrSkip() }
    override func tearDown() { worker = nil }

    func testWorkerRunsMDK080() throws {
        let r = try worker.call("ping")
        XCTAssertEqual(r["mdk_version"] as? String, "0.8.0")
    }

    func testCreateJoinAndMessagesBothWays() throws {
        try InteropScenarios.createAndJoin(creator: try worker.newPeer("alice"), joiner: try worker.newPeer("bob"))
    }

    func testAddRemoveSelfUpdateFromEitherSideAndRemovedMembersReadNothing() throws {
        try InteropScenarios.commitsFromEitherSide(a: try worker.newPeer("a"), b: try worker.newPeer("b"),
                                                  c: try worker.newPeer("c"), d: try worker.newPeer("d"))
    }

    func testFiftyKeyPackagesConsumedInTheSameSecond() throws {
        let makers = try (0..<50).map { try worker.newPeer("m\($0)") }
        try InteropScenarios.keyPackagesConsumedAtOnce(consumer: try worker.newPeer("admin"), makers: makers, count: 50)
    }

    func testLeaveIsAProposalTheAdminCommits() throws {
        let alice = try worker.newPeer("alice"), bob = try worker.newPeer("bob")
        let group = try InteropScenarios.createAndJoin(creator: alice, joiner: bob)
        let proposal = try bob.leave(group: group)
        XCTAssertEqual(proposal.kind, 445)
        let commit = try XCTUnwrap(try alice.processProposal(proposal), "the admin commits the leave at once")
        try alice.mergePendingCommit(group: group)
        XCTAssertEqual(try alice.members(group: group), [alice.pubkey])
        _ = try bob.process(commit)
        try InteropScenarios.expectUnreadable(group, by: bob, senders: [alice])
    }

    func testMDKRefusalsSurfaceAsTypedFailures() throws {
        let alice = try worker.newPeer("alice"), bob = try worker.newPeer("bob"), carol = try worker.newPeer("carol")
        let group = try InteropScenarios.createAndJoin(creator: alice, joiner: bob)
        let kp = try carol.keyPackageEvent(relays: InteropScenarios.relays)
        XCTAssertThrowsError(try bob.addMembers([kp], group: group), "MDK lets only admins add") { error in
            XCTAssertEqual((error as? MDKWorkerFailure)?.kind, .refused)
        }
        XCTAssertThrowsError(try worker.call("no_such_command")) { error in
            XCTAssertEqual((error as? MDKWorkerFailure)?.errorType, "bad_request")
        }
        // The worker keeps serving after refusals.
        try InteropScenarios.exchange(group, [alice, bob], tag: "after refusals")
    }
}
