import Foundation

/// Locates `vectors/` at the package root from this file's path.
enum VectorFiles {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("vectors")

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
}
