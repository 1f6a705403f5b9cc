import InviteKitCrypto
import InviteKitNostr
import InviteKitRelay
import InviteKitTestSupport
import XCTest

extension TestEvents {
    /// Collects items until `.eose`, returning the events before it.
    static func collectUntilEOSE(_ sub: RelaySubscription) async -> [NostrEvent] {
        var out = [NostrEvent]()
        for await item in sub.items {
            if case .event(let e) = item { out.append(e) }
            if case .eose = item { break }
        }
        return out
    }
}

/// Pulls items from a subscription one at a time across awaits.
final class ItemReader: @unchecked Sendable {
    private var iterator: AsyncStream<SubscriptionItem>.Iterator
    init(_ sub: RelaySubscription) { iterator = sub.items.makeAsyncIterator() }
    func next() async -> SubscriptionItem? { await iterator.next() }

    /// The next `.event`, skipping markers; `nil` when the stream ends or `timeout` passes.
    func nextEvent(timeout: Duration = .seconds(15)) async -> NostrEvent? {
        let deadline = ContinuousClock.now + timeout
        return await withTaskGroup(of: NostrEvent?.self) { group in
            group.addTask {
                while ContinuousClock.now < deadline {
                    guard let item = await self.next() else { return nil }
                    if case .event(let e) = item { return e }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return nil
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
    }
}

/// `XCTAssert*` cannot await inside its autoclosure.
func assertAccepted(_ relay: any NostrRelayConnection, _ event: NostrEvent, file: StaticString = #filePath, line: UInt = #line) async {
    let outcome = await relay.publish(event)
    XCTAssertTrue(outcome.isAccepted, "\(outcome)", file: file, line: line)
}
