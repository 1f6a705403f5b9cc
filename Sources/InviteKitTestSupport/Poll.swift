import Foundation

/// Waiting for something to become true, with a deadline, instead of sleeping a fixed time: a
/// fixed sleep is either too short on a loaded machine or wasted on a fast one.
package enum Poll {
    /// Checks `condition` every `interval` seconds until it holds (true) or `timeout` passes (false).
    @discardableResult
    package static func until(timeout: TimeInterval = 30, every interval: TimeInterval = 0.2, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while true {
            if try condition() { return true }
            guard Date() < end else { return false }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    /// The same from async code: checks `condition` every `interval` until it holds or `timeout` passes.
    @discardableResult
    package static func awaiting(timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(50),
                                _ condition: () async throws -> Bool) async rethrows -> Bool {
        let end = ContinuousClock.now + timeout
        while true {
            if try await condition() { return true }
            guard ContinuousClock.now < end else { return false }
            try? await Task.sleep(for: interval)
        }
    }
}
