import XCTest
@testable import InviteKit

/// The README's relay example, compiled and run here; the test fails when the README's copy
/// differs from these lines, so the example cannot rot.
final class ReadmeExampleTests: XCTestCase {
    func example() async throws -> JoinState {
        // README-BEGIN
        let pool = RelayPool([InMemoryRelay(url: "wss://relay.example")])
        let ada = Secp256k1.PrivateKey(), dee = Secp256k1.PrivateKey()

        // Ada hosts a group and makes an invite for it.
        let inviter = JoinRequestProcessor(inviter: ada, consumedTags: InMemoryConsumedTagStore())
        let hosted = try HostedGroup.create(creator: ada, name: "Book club", relays: pool.urls)
        inviter.host(hosted)
        let url = try inviter.invite(for: hosted.conversationID).url()

        // Dee checks the invite and sends her KeyPackage and the gift-wrapped join request.
        var joiner = JoinClient(key: dee, keyPackages: MemoryKeyPackageStore())
        let request = try joiner.start(invite: url, name: "Dee")
        for event in [request.keyPackageEvent, request.joinRequest] { _ = await pool.publish(event) }

        // Ada decides; the Welcome goes out only once a relay stored the Commit.
        let inbox = await GiftWrapCatchUp.run(pool: pool, recipient: ada) { _ in }.batch
        for gift in inbox.succeeded {
            switch inviter.process(gift) {
            case .accepted(let pending):
                let acks = await pool.publish(pending.event).succeeded.map(\.relay)
                for welcome in try inviter.confirmPublished(pending, acknowledgedBy: acks) { _ = await pool.publish(welcome) }
            case .rejected(let reply, _):
                _ = await pool.publish(reply)
            default:
                break  // ignored, dropped, or waiting for an admin's approval
            }
        }

        // Dee reads what came back: a Welcome (joined) or a join error (joinFailed).
        joiner.catchUp(await GiftWrapCatchUp.run(pool: pool, recipient: dee) { _ in }.batch)
        print(joiner.state)  // joined group … at epoch 1
        // README-END
        return joiner.state
    }

    func testTheExampleJoins() async throws {
        guard case .joined(let group) = try await example() else { return XCTFail("the README example did not join") }
        XCTAssertEqual(group.epoch, 1)
    }

    func testTheReadmeShowsTheseLines() throws {
        let here = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
        guard let begin = here.firstIndex(of: "        // README-BEGIN"), let end = here.firstIndex(of: "        // README-END") else {
            return XCTFail("markers missing")
        }
        let body = here[(begin + 1)..<end].map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : $0 }
        XCTAssertLessThanOrEqual(body.count + 1, 40, "the README example stays within 40 lines")
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let block = "```swift\nimport InviteKit\n\n" + body.joined(separator: "\n") + "\n```"
        XCTAssertTrue(text.contains(block), "README.md must hold this example verbatim:\n\(block)")
    }
}
