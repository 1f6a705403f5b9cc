import XCTest
import InviteKitTestSupport
@testable import InviteKit

/// What the `invitekit` tool asks of a home through the library alone (issue 30): making its
/// identity, looking it over, and reading a group's messages as they come.
final class NodeHomeToolTests: XCTestCase {
    func testCreateIdentityRefusesAnExistingOneUnlessReplacing() throws {
        let dir = TemporaryDirectory(prefix: "invitekit-home-tool")
        let home = NodeHome(StoreHome(directory: dir.file("h")))
        let first = try home.createIdentity(relays: ["wss://relay.example"], now: 100)
        XCTAssertEqual(first.setAside, [])
        XCTAssertThrowsError(try home.createIdentity(relays: [], now: 101)) {
            XCTAssertEqual(($0 as? InviteKitError)?.code, .homeUnavailable)
        }
        let second = try home.createIdentity(relays: [], replacingIdentity: true, now: 102)
        XCTAssertNotEqual(second.publicKey, first.publicKey)
        XCTAssertTrue(second.setAside.contains { $0.hasSuffix("identity.key.replaced-102") }, "\(second.setAside)")
        XCTAssertTrue(second.setAside.contains { $0.hasSuffix("invitekit.sqlite.replaced-102") }, "\(second.setAside)")
    }

    func testCheckupOfAHealthyAnEmptyAndABrokenHome() throws {
        let dir = TemporaryDirectory(prefix: "invitekit-home-tool")
        let empty = NodeHome(StoreHome(directory: dir.file("none"))).checkup()
        XCTAssertEqual(try empty.identity.get(), .absent)
        XCTAssertNil(empty.database)
        XCTAssertNil(empty.restoreProblems)

        let home = NodeHome(StoreHome(directory: dir.file("h")))
        _ = try home.createIdentity(relays: ["wss://relay.example"])
        let healthy = home.checkup()
        XCTAssertEqual(try healthy.identity.get(), .present)
        let database = try XCTUnwrap(try healthy.database?.get())
        XCTAssertEqual(database.schemaVersion, healthy.currentSchemaVersion)
        XCTAssertEqual(database.integrity, ["ok"])
        XCTAssertEqual(healthy.restoreProblems, [])
        XCTAssertEqual(healthy.lock?.held, false)
        XCTAssertTrue(healthy.files.allSatisfy { $0.problem == nil }, "\(healthy.files)")

        XCTAssertEqual(unlink(dir.file("h/identity.key")), 0)
        guard case .broken(let error) = try home.checkup().identity.get() else { return XCTFail("a home without its key is whole") }
        XCTAssertTrue(error.context?.contains("identity.key is missing") == true, "\(error)")
    }

    func testMessagesReadsAGroupAndFollowsItUntilCancelled() async throws {
        let dir = TemporaryDirectory(prefix: "invitekit-home-tool")
        let storeHome = StoreHome(directory: dir.file("h"))
        let home = NodeHome(storeHome)
        _ = try home.createIdentity(relays: ["wss://relay.example"])
        let node = try InviteKitNode(home: storeHome)
        let group = try await node.createGroup(name: "club")
        let first = try await node.send("one", to: group.id)

        var read: [String] = []
        for try await m in home.messages(of: group.id, follow: false) { read.append(m.eventID) }
        XCTAssertEqual(read, [first])

        // Following: a message stored later arrives; cancelling the reader ends the stream.
        let follower = Task {
            var seen: [String] = []
            for try await m in home.messages(of: group.id, follow: true, interval: .milliseconds(20)) {
                seen.append(m.eventID)
                if seen.count == 2 { break }
            }
            return seen
        }
        let second = try await node.send("two", to: group.id)
        let seen = try await follower.value
        XCTAssertEqual(seen, [first, second])
        await node.shutdown()

        do {
            for try await _ in home.messages(of: "no-such-group", follow: true) { XCTFail("a message of no group") }
            XCTFail("no error for a group the home does not have")
        } catch {
            XCTAssertEqual((error as? InviteKitError)?.code, .groupNotFound)
        }
    }
}
