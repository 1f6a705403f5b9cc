import Foundation

/// Progress lines on stderr while a long fixture builds, so the table on stdout stays parseable.
enum BenchLog {
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
