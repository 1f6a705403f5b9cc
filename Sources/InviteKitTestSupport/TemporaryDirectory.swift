import Foundation

/// A fresh directory under the system temporary directory, removed on deinit: the one way tests
/// make scratch space, so none is left behind and none is shared between tests.
///
/// Keep the value itself in scope while its path is used (a property, or use `path`/`file` on it
/// directly): once it is released, the directory goes.
package final class TemporaryDirectory: Sendable {
    package let path: String

    /// `prefix` names the directory after what made it, for whoever finds one a crash left behind.
    /// The directory is 0700: homes and state files below it refuse one others can read.
    package init(prefix: String = "invitekit") {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside the directory (not created).
    package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// The URL of `name` inside the directory (not created).
    package func fileURL(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit {
        // A test may have made the directory read-only or unsearchable: give it back first.
        _ = chmod(path, 0o700)
        try? FileManager.default.removeItem(atPath: path)
    }
}
