import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// KeyPackage events across implementations (Marmot MIP-00, kind 30443), each way, consumed in
/// the same second they are made.
final class MDKKeyPackageInteropTests: XCTestCase {
    var worker: MDKWorker!
    let relays = InteropScenarios.relays

    override func setUpWithError() throws { worker = try MDKWorker.startOrSkip() }
    override func tearDown() { worker = nil }

    func testInviteKitValidatesFiftyMDKKeyPackagesInTheSameSecond() throws {
        let peers = try (0..<5).map { try worker.newPeer("p\($0)") }
        var checked = 0
        for i in 0..<50 {
            let peer = peers[i % peers.count]
            let (event, hashRef) = try peer.createKeyPackage(relays: relays)
            let now = UnixTime.now()
            XCTAssertLessThanOrEqual(now - event.createdAt, 1)
            let v = try KeyPackageValidator.validate(event, now: now)
            XCTAssertEqual(event.kind, KeyPackageEvent.kind)
            XCTAssertEqual(event.pubkey, peer.pubkey)
            XCTAssertEqual(Hex.encode(v.reference), hashRef, "InviteKit's KeyPackageRef differs from MDK's")
            XCTAssertEqual(event.firstTagValue("i"), hashRef)
            XCTAssertEqual(event.firstTagValue("client"), "MDK/0.8.0")
            XCTAssertEqual(Hex.encode(v.keyPackage.leafNode.credential.identity), peer.pubkey)
            XCTAssertTrue(v.isLastResort, "MDK 0.8.0 marks its KeyPackages last_resort")
            checked += 1
        }
        XCTAssertEqual(checked, 50)
    }

    func testInviteKitSelectsAmongMDKKeyPackages() throws {
        let peer = try worker.newPeer("p")
        let events = try (0..<5).map { _ in try peer.createKeyPackage(relays: relays).event }
        let selection = KeyPackageValidator.select(events)
        XCTAssertEqual(selection.valid.count, 5)
        XCTAssertTrue(selection.rejected.isEmpty, "\(selection.rejected.map(\.error))")
        XCTAssertNotNil(selection.chosen)
    }

    /// OpenMLS (inside MDK) takes a KeyPackage only while not_before < now in whole seconds, so
    /// one made this second must start earlier than its created_at (issue 11's not_before defect).
    func testMDKAcceptsInviteKitKeyPackageInTheSameSecond() throws {
        let mdk = try worker.newPeer("mdk")
        let event = try InviteKitMember(label: "ik").keyPackageEvent(relays: relays)
        let lifetime = try XCTUnwrap(try KeyPackageValidator.validate(event).keyPackage.leafNode.lifetime)
        XCTAssertLessThan(Int64(lifetime.notBefore), event.createdAt)
        XCTAssertNoThrow(try mdk.parseKeyPackage(event))
    }

    func testMDKConsumesFiftyInviteKitKeyPackagesInTheSameSecond() throws {
        let mdk = try worker.newPeer("mdk")
        let members = (0..<50).map { InviteKitMember(label: "ik\($0)") }
        let events = try members.map { try $0.keyPackageEvent(relays: relays) }
        let consumedAt = UnixTime.now()
        let result = try mdk.createGroup(name: "bulk", relays: relays, admins: [mdk.pubkey], inviting: events)
        XCTAssertLessThanOrEqual(consumedAt - events.map(\.createdAt).max()!, 1)
        XCTAssertEqual(result.change.welcomes.count, 50)
        try mdk.mergePendingCommit(group: result.group)
        XCTAssertEqual(try mdk.members(group: result.group), Set(members.map(\.pubkey) + [mdk.pubkey]))
    }
}
