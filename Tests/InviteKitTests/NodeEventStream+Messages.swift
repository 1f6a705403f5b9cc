import Foundation
@testable import InviteKit

extension AsyncStream where Element == NodeEvent {
    /// Whether a received message with `text` arrives on this stream within `timeout`.
    func receives(_ text: String, within timeout: Duration = .seconds(60)) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await e in self { if case .messageReceived(let m) = e, m.content == text { return true } }
                return false
            }
            group.addTask { try? await Task.sleep(for: timeout); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
