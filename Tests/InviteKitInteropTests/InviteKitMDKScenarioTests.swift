import XCTest
import InviteKitNostr

/// Issue 11's interop scenarios with InviteKit on one side and MDK on the other, each direction.
/// They run the same ``InteropScenarios`` that MDKHarnessTests runs MDK↔MDK.
final class InviteKitMDKScenarioTests: XCTestCase {
    var worker: MDKWorker!

    override func setUpWithError() throws { worker = try MDKWorker.startOrSkip() }
    override func tearDown() { worker = nil }

    /// MDK creates the group and adds an InviteKit KeyPackage; InviteKit joins; both read each other.
    func testMDKCreatesGroupInviteKitJoins() throws {
        try InteropScenarios.createAndJoin(creator: try worker.newPeer("mdk"), joiner: InviteKitMember(label: "ik"))
    }

    /// InviteKit creates the group and adds an MDK KeyPackage; MDK accepts; both read each other.
    func testInviteKitCreatesGroupMDKJoins() throws {
        try InteropScenarios.createAndJoin(creator: InviteKitMember(label: "ik"), joiner: try worker.newPeer("mdk"))
    }

    /// Add, remove and self-update committed by MDK and by InviteKit, applied by the other;
    /// removed members (one of each) read nothing afterwards.
    func testCommitsFromEitherSideMDKFirstAdmin() throws {
        try InteropScenarios.commitsFromEitherSide(a: try worker.newPeer("mdk-a"), b: InviteKitMember(label: "ik-b"),
                                                  c: try worker.newPeer("mdk-c"), d: InviteKitMember(label: "ik-d"))
    }

    func testCommitsFromEitherSideInviteKitFirstAdmin() throws {
        try InteropScenarios.commitsFromEitherSide(a: InviteKitMember(label: "ik-a"), b: try worker.newPeer("mdk-b"),
                                                  c: InviteKitMember(label: "ik-c"), d: try worker.newPeer("mdk-d"))
    }

    /// 50 MDK KeyPackages consumed by InviteKit in the same second they were made.
    func testInviteKitConsumesFiftyMDKKeyPackages() throws {
        let makers = try (0..<50).map { try worker.newPeer("m\($0)") }
        try InteropScenarios.keyPackagesConsumedAtOnce(consumer: InviteKitMember(label: "ik"), makers: makers, count: 50)
    }

    /// 50 InviteKit KeyPackages consumed by MDK in the same second; each InviteKit member joins.
    func testMDKConsumesFiftyInviteKitKeyPackages() throws {
        let makers = (0..<50).map { InviteKitMember(label: "ik\($0)") }
        try InteropScenarios.keyPackagesConsumedAtOnce(consumer: try worker.newPeer("mdk"), makers: makers, count: 50)
    }
}
