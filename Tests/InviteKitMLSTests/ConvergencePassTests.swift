import XCTest
@testable import InviteKitMLS

/// The collection window of `protocol-core/convergence.md`: quiet timer restarted by input, an
/// absolute cap that never moves, a frozen batch, nothing opened while an own Commit is pending,
/// and a bounded batch.
final class ConvergencePassTests: XCTestCase {
    private let timing = ConvergencePassTiming(quiescence: .milliseconds(1000), cap: .milliseconds(5000))

    func testTheV1TimingIsThePolicys() {
        XCTAssertEqual(ConvergencePassTiming.v1.quiescence, .milliseconds(1000))
        XCTAssertEqual(ConvergencePassTiming.v1.cap, .milliseconds(5000))
    }

    func testAPassClosesAfterQuietAndEachInputRestartsTheQuietTimer() {
        let t0 = ContinuousClock.now
        var pass = ConvergencePass<String>(timing: timing)
        XCTAssertNil(pass.retain("a", divergent: false, canOpen: true, at: t0))
        XCTAssertTrue(pass.isOpen)
        XCTAssertEqual(pass.deadline, t0 + .milliseconds(1000))
        XCTAssertNil(pass.closeIfDue(at: t0 + .milliseconds(999)))
        XCTAssertNil(pass.retain("b", divergent: false, canOpen: true, at: t0 + .milliseconds(900)))
        XCTAssertEqual(pass.deadline, t0 + .milliseconds(1900), "relevant input restarts the quiet timer")
        XCTAssertNil(pass.closeIfDue(at: t0 + .milliseconds(1500)))
        XCTAssertEqual(pass.closeIfDue(at: t0 + .milliseconds(1900)), ["a", "b"])
        XCTAssertFalse(pass.isOpen)
        XCTAssertNil(pass.deadline)
        XCTAssertTrue(pass.retained.isEmpty)
    }

    func testTheCapNeverMovesWhateverArrives() {
        let t0 = ContinuousClock.now
        var pass = ConvergencePass<Int>(timing: timing)
        _ = pass.retain(0, divergent: false, canOpen: true, at: t0)
        // An input every 800 ms would keep the quiet timer open for ever.
        for i in 1...7 {
            let at = t0 + .milliseconds(800 * i)
            if at >= t0 + .milliseconds(5000) {
                XCTAssertEqual(pass.closeIfDue(at: at), Array(0..<i), "closed at the cap, 5 s after the start")
                return
            }
            _ = pass.retain(i, divergent: false, canOpen: true, at: at)
            XCTAssertLessThanOrEqual(pass.deadline!, t0 + .milliseconds(5000))
        }
        XCTFail("the pass never reached its cap")
    }

    func testInputAfterTheCutoffBelongsToTheNextPass() {
        let t0 = ContinuousClock.now
        var pass = ConvergencePass<String>(timing: timing)
        _ = pass.retain("a", divergent: true, canOpen: true, at: t0)
        XCTAssertTrue(pass.recovering)
        XCTAssertEqual(pass.closeIfDue(at: t0 + .seconds(1)), ["a"])
        XCTAssertFalse(pass.recovering, "a resolved pass leaves the group Stable")
        _ = pass.retain("b", divergent: false, canOpen: true, at: t0 + .seconds(2))
        XCTAssertFalse(pass.recovering)
        XCTAssertEqual(pass.openedAt, t0 + .seconds(2), "a new pass opens with its own timers")
        XCTAssertEqual(pass.closeIfDue(at: t0 + .seconds(3)), ["b"])
    }

    func testNothingOpensWhileAnOwnCommitIsPending() {
        let t0 = ContinuousClock.now
        var pass = ConvergencePass<String>(timing: timing)
        _ = pass.retain("a", divergent: false, canOpen: false, at: t0)
        XCTAssertFalse(pass.isOpen)
        XCTAssertNil(pass.closeIfDue(at: t0 + .seconds(60)), "held input is not resolved while the lifecycle is PendingPublish")
        XCTAssertEqual(pass.retained, ["a"])
        pass.openIfWaiting(at: t0 + .seconds(61))
        XCTAssertEqual(pass.openedAt, t0 + .seconds(61), "the pass starts when the group is Stable again, not at receipt")
        XCTAssertNil(pass.closeIfDue(at: t0 + .milliseconds(61_500)))
        XCTAssertEqual(pass.closeIfDue(at: t0 + .seconds(62)), ["a"])
    }

    func testAFullBatchIsResolvedAndTheNextInputStartsANewPass() {
        let t0 = ContinuousClock.now
        var pass = ConvergencePass<Int>(timing: timing)
        let n = ConvergencePass<Int>.maxBatchCount
        for i in 0..<n { XCTAssertNil(pass.retain(i, divergent: false, canOpen: true, at: t0)) }
        let frozen = pass.retain(n, divergent: false, canOpen: true, at: t0 + .milliseconds(10))
        XCTAssertEqual(frozen, Array(0..<n))
        XCTAssertEqual(pass.retained, [n])
        XCTAssertEqual(pass.openedAt, t0 + .milliseconds(10))
    }

    func testTheCapIsNeverBelowTheQuietTime() {
        XCTAssertEqual(ConvergencePassTiming(quiescence: .seconds(2), cap: .seconds(1)).cap, .seconds(2))
    }
}
