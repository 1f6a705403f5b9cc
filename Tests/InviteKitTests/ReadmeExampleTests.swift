import XCTest
import Foundation
@testable import InviteKit
import InviteKitTestSupport

/// The README's first example (an inviter app and a joiner app on ``InviteKitNode``), compiled
/// and run here over the in-memory relay; the test fails when the README's copy differs from
/// these lines, so the example cannot rot.
final class ReadmeExampleTests: XCTestCase {
    static func example(root: String) async throws -> String {
        // README-BEGIN
        let relay = InMemoryRelay(url: "wss://relay.example")  // an app omits the connector: WebSocket
        let config = InviteKitNode.Configuration(connector: { _ in relay })

        // Each app opens its home (identity, groups and history, in SQLite) and runs its node.
        func open(_ name: String) throws -> InviteKitNode {
            let home = StoreHome(directory: root + "/" + name)
            if !home.exists { try InviteKitNode.initialize(home: home, relays: [relay.url]) }
            return try InviteKitNode(home: home, configuration: config)
        }
        let ada = try open("ada"), dee = try open("dee")
        let runners = [ada, dee].map { $0.runInBackground() }
        defer { runners.forEach { $0.cancel() } }

        // Ada creates a group and a single-use invite; Dee joins through it.
        let group = try await ada.createGroup(name: "Book club")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600)
        let joined = try await dee.join(invite.url, timeout: .seconds(30))  // after the Welcome

        // Dee writes; Ada's app reads it from its event stream (and from history(of:)).
        let adaEvents = ada.events()
        try await dee.send("hello ada", to: joined.id)
        for await event in adaEvents {
            if case .messageReceived(let message) = event { return message.content }  // "hello ada"
        }
        // README-END
        return ""
    }

    func testTheExampleJoinsAndDelivers() async throws {
        let root = TemporaryDirectory(prefix: "invitekit-readme")
        let received = try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask { try await Self.example(root: root.path) }
            group.addTask { try await Task.sleep(for: .seconds(60)); return "timed out" }
            let first = try await group.next() ?? ""
            group.cancelAll()
            return first
        }
        XCTAssertEqual(received, "hello ada")
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
