import Foundation
import InviteKit

/// The app's own durable record of the node's feed: `HOME/feed.log`, one line per message,
/// `sequence <tab> created_at <tab> outgoing <tab> content`. The cursor is the last line's
/// sequence, so handling a message and moving the cursor are one write: a `kill -9` leaves the
/// line written or not, never one without the other (a small `write` to a file is whole).
struct FeedLog {
    let path: String

    init(home: String) { path = (home as NSString).appendingPathComponent("feed.log") }

    /// The sequence of the last message in the log (0 when there is none).
    func cursor() -> Int64 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        let last = text.split(separator: "\n").last { !$0.isEmpty }
        return last.flatMap { Int64($0.split(separator: "\t").first ?? "") } ?? 0
    }

    /// Returns once the log reached the newest stored message of every group.
    func waitUntilCaughtUp(_ node: InviteKitNode) async throws {
        var newest: Int64 = 0
        for group in try await node.groups() {
            newest = max(newest, try await node.history(of: group.id, limit: 10_000).map(\.sequence).max() ?? 0)
        }
        while cursor() < newest { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// Appends every message the feed delivers after the log's cursor, each line synced before
    /// the next is read.
    func consume(_ node: InviteKitNode) async throws {
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        for await m in node.feed(since: cursor()) {
            // Contents are the tests' own "ping N"/"pong N": no tab or newline to escape.
            let line = "\(m.sequence)\t\(m.createdAt)\t\(m.outgoing ? 1 : 0)\t\(m.content)\n"
            try handle.write(contentsOf: Data(line.utf8))
            try handle.synchronize()
        }
    }
}
