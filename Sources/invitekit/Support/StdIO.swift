import Foundation

enum StdIO {
    /// All of standard input, bounded so a runaway pipe cannot exhaust memory.
    static func readAll(limit: Int = 64 * 1024 * 1024) throws -> [UInt8] {
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(0, &chunk, chunk.count)
            if n < 0 { throw CLIFailure("cannot read standard input") }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw CLIFailure("standard input exceeds \(limit) bytes") }
        }
        return out
    }

    static func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(1, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }

    static func printLine(_ s: String) { write(Array((s + "\n").utf8)) }

    static func printError(_ s: String) {
        let line = "invitekit: " + s.replacingOccurrences(of: "\n", with: " ") + "\n"
        FileHandle.standardError.write(line.data(using: .utf8)!)
    }
}
