import XCTest
import InviteKitTestSupport
@testable import InviteKit
import InviteKitDemo

/// The whole join story (success, a failed join, a removal) through a real nostr-relay
/// started on loopback, over WebSocket.
final class RealRelayJoinStoryTests: XCTestCase {
    var relay: RelayProcess!

    override func setUpWithError() throws {
        try RelayProcess.requireRelay()
        relay = try RelayProcess()
        try relay.start()
    }

    override func tearDown() {
        relay?.tearDown()
    }

    func testDemoStoryThroughTheRealRelay() async throws {
        let pool = RelayPool(urls: [relay.url])
        var steps = [StoryStep]()
        let ok = try await DemoStory.run(pool: pool, showQR: false) { steps.append($0) }
        await pool.close()
        XCTAssertTrue(ok, steps.filter { !$0.ok }.map { "\($0.step). \($0.title): \($0.text.joined(separator: " "))" }.joined(separator: "\n"))
        XCTAssertEqual(steps.map(\.step), [1, 2, 3, 4, 5, 6, 7])
        XCTAssertTrue(steps[5].text.joined().contains("This invite was already used"))
    }
}
