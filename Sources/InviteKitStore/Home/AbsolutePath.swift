import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place a path the user gave (`--home`, `$INVITEKIT_HOME`, `--state`, an output or key
/// file) becomes absolute (docs/cli.md §3).
///
/// Relative paths are resolved against the current directory once, when the path is taken, so
/// every later step (creating parents, the lock, SQLite, error messages) sees the same absolute
/// path. The later steps also never ask Foundation for the parent of a bare name: on Linux,
/// `NSString.deletingLastPathComponent` traps on a one-component relative path such as `A`,
/// which is how `init --home A` used to crash.
public enum AbsolutePath {
    /// `path` made absolute against `currentDirectory` (default: the process's), with `.`
    /// components and repeated or trailing slashes removed. `..` is kept as written: resolving
    /// it textually would be wrong across a symbolic link. An empty path stays empty, for the
    /// caller to refuse; a path is returned as given when the current directory is unknown.
    public static func resolve(_ path: String, currentDirectory: String? = nil) -> String {
        guard !path.isEmpty else { return path }
        let base: String
        if path.hasPrefix("/") {
            base = ""
        } else if let cwd = currentDirectory ?? processDirectory() {
            base = cwd
        } else {
            return path
        }
        let parts = (base + "/" + path).split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    /// The directory holding `path`, without Foundation's path getters (see the type's
    /// documentation): `/` for `/x`, `.` for a bare name.
    public static func parent(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    private static func processDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
