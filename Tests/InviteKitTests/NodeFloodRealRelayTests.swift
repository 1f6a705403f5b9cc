import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit

/// Nobody outside a group can slow it (issue 18): two nodes in a group over the real
/// nostr-relay on loopback (WebSocket), a stranger floods the relay with well-formed junk kind
/// 445s for the group, and a real message sent when the flood ends is in the receiver's
/// history within 10 s. `INVITEKIT_FLOOD_EVENTS` sets the flood's size (default 5,000).
final class NodeFloodRealRelayTests: RealRelayNodeTestCase {

    func testRealMessageAfterAJunkFloodArrivesWithinTenSeconds() async throws {
        let floodSize = Int(ProcessInfo.processInfo.environment["INVITEKIT_FLOOD_EVENTS"] ?? "") ?? 5000
        let ada = try node("ada", seed: 1), dee = try node("dee", seed: 2)
        let adaRun = Task { try await ada.run() }
        var deeRun = Task { try await dee.run() }
        defer { adaRun.cancel(); deeRun.cancel() }
        let group = try await ada.createGroup(name: "club")
        let invite = try await ada.createInvite(groupID: group.id, singleUse: false, expiresIn: 3600)
        _ = try await dee.join(invite.url, timeout: .seconds(60))

        // Dated 4 minutes ahead (within MIP-03's skew): newer than the real messages, so a
        // relay's newest-first catch-up sends every one of them before those.
        let rng = SeededRandom(seed: 445)
        let ahead = UnixTime.now() + 240
        let junk = (0..<floodSize).map { _ in
            TestEvents.junkGroupEvent(nostrGroupID: group.nostrGroupID, bytes: 1024, rng: rng, createdAt: ahead)
        }
        let stranger = WebSocketRelayClient(url: relay.url)
        let floodStart = ContinuousClock.now
        // 32 in flight on one connection, as a determined sender would.
        let accepted = await withTaskGroup(of: Bool.self) { tasks in
            var next = 0, ok = 0
            func add() {
                let e = junk[next]
                next += 1
                tasks.addTask { await stranger.publish(e, timeout: .seconds(30)).isAccepted }
            }
            while next < min(32, junk.count) { add() }
            for await a in tasks {
                if a { ok += 1 }
                if next < junk.count { add() }
            }
            return ok
        }
        let floodEnd = ContinuousClock.now
        await stranger.close()
        XCTAssertEqual(accepted, floodSize, "the relay refused junk")

        let delay = try await sendAndWait("after the flood", from: ada, to: dee, group: group.id) - floodEnd
        print("flood of \(floodSize) junk events published in \(floodEnd - floodStart); message in history \(delay) after its end")
        XCTAssertLessThanOrEqual(delay, .seconds(10), "the real message came \(delay) after the flood's end")

        // The relay sends a restarted node the whole flood at once, as fast as it reads it, and
        // the message sent while it was stopped after it: in history within 10 s all the same.
        deeRun.cancel()
        _ = await deeRun.result
        let delivered = ada.events()
        let offline = try await ada.send("after the restart", to: group.id)
        for await e in delivered { if case .messageDelivered(_, let id) = e, id == offline { break } }
        let events = dee.events()
        let restart = ContinuousClock.now
        deeRun = Task { try await dee.run() }
        let catchUp = try await arrival(of: "after the restart", in: events) - restart
        print("restarted node: message in history \(catchUp) after the restart, behind \(floodSize) stored junk events")
        XCTAssertLessThanOrEqual(catchUp, .seconds(10), "the real message came \(catchUp) after the restart")
        let history = try await dee.history(of: group.id).map(\.content)
        XCTAssertEqual(history, ["after the flood", "after the restart"])
    }

    /// Sends `text` from `sender` and returns when `receiver` stored it (at most 60 s).
    private func sendAndWait(_ text: String, from sender: InviteKitNode, to receiver: InviteKitNode, group: String) async throws -> ContinuousClock.Instant {
        let events = receiver.events()
        _ = try await sender.send(text, to: group)
        return try await arrival(of: text, in: events)
    }

    /// When a node's `events` reported `text` stored (at most 60 s).
    private func arrival(of text: String, in events: AsyncStream<NodeEvent>) async throws -> ContinuousClock.Instant {
        let arrived = Task { () -> ContinuousClock.Instant? in
            for await e in events { if case .messageReceived(let m) = e, m.content == text { return ContinuousClock.now } }
            return nil
        }
        let timer = Task { try await Task.sleep(for: .seconds(60)); arrived.cancel() }
        defer { timer.cancel() }
        let at = await arrived.value
        return try XCTUnwrap(at, "\(text) never arrived")
    }
}
