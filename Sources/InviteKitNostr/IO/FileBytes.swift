import Foundation

/// Whole-file reads for vectors and stores.
public enum FileBytes {
    public static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }
}
