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

    /// The known InviteKit defect: its KeyPackages start at not_before = created_at, and OpenMLS
    /// (inside MDK) only accepts not_before < now, so MDK refuses them within the same second.
    /// The `marmot` branch fixes it. While the defect is present a refusal skips with this reason;
    /// once not_before precedes created_at a refusal fails the test.
    func skipIfKnownNotBeforeDefect(_ event: NostrEvent, _ error: Error, file: StaticString = #filePath, line: UInt = #line) throws {
        let kp = try KeyPackageValidator.validate(event).keyPackage
        if let lifetime = kp.leafNode.lifetime, Int64(lifetime.notBefore) >= event.createdAt {
            throw XCTSkip("known defect (fixed on the marmot branch, not merged): InviteKit sets not_before = created_at, "
                          + "so MDK refuses its KeyPackage in the same second; MDK said: \(error)", file: file, line: line)
        }
    }

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

    func testMDKAcceptsInviteKitKeyPackageOnceNotBeforeHasPassed() throws {
        let mdk = try worker.newPeer("mdk")
        let member = InviteKitMember(label: "ik")
        member.keyPackageAge = 5
        let event = try member.keyPackageEvent(relays: relays)
        XCTAssertNoThrow(try mdk.parseKeyPackage(event))
    }

    func testMDKAcceptsInviteKitKeyPackageInTheSameSecond() throws {
        let mdk = try worker.newPeer("mdk")
        let event = try InviteKitMember(label: "ik").keyPackageEvent(relays: relays)
        do { try mdk.parseKeyPackage(event) } catch {
            try skipIfKnownNotBeforeDefect(event, error)
            throw error
        }
    }

    func testMDKConsumesFiftyInviteKitKeyPackagesInTheSameSecond() throws {
        let mdk = try worker.newPeer("mdk")
        let members = (0..<50).map { InviteKitMember(label: "ik\($0)") }
        let events = try members.map { try $0.keyPackageEvent(relays: relays) }
        let result: (group: String, change: InteropChange)
        let consumedAt = UnixTime.now()
        do {
            result = try mdk.createGroup(name: "bulk", relays: relays, admins: [mdk.pubkey], inviting: events)
        } catch {
            try skipIfKnownNotBeforeDefect(events[events.count - 1], error)
            throw error
        }
        XCTAssertLessThanOrEqual(consumedAt - events.map(\.createdAt).max()!, 1)
        XCTAssertEqual(result.change.welcomes.count, 50)
        try mdk.mergePendingCommit(group: result.group)
        XCTAssertEqual(try mdk.members(group: result.group), Set(members.map(\.pubkey) + [mdk.pubkey]))
    }

    /// The same consumption with KeyPackages a few seconds old: shows everything but the
    /// not_before defect already satisfies MDK.
    func testMDKConsumesFiftyBackdatedInviteKitKeyPackages() throws {
        let mdk = try worker.newPeer("mdk")
        let members = (0..<50).map { InviteKitMember(label: "ik\($0)") }
        for m in members { m.keyPackageAge = 5 }
        let events = try members.map { try $0.keyPackageEvent(relays: relays) }
        let (group, change) = try mdk.createGroup(name: "bulk", relays: relays, admins: [mdk.pubkey], inviting: events)
        XCTAssertEqual(change.welcomes.count, 50)
        try mdk.mergePendingCommit(group: group)
        XCTAssertEqual(try mdk.members(group: group).count, 51)
    }
}
