import Foundation

/// Finds files under the package's `vectors/` directory from a test source file.
package enum VectorFiles {
    package static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("vectors")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("external").path) { return candidate }
        }
        fatalError("vectors/ not found above \(#filePath)")
    }()

    package static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    package static func data(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }

    package static func json(_ relative: String) throws -> Any {
        try JSONSerialization.jsonObject(with: data(relative))
    }
}

/// Test-only hex decoding that traps on bad input (vector files are trusted).
package func hex(_ s: String) -> [UInt8] {
    var out = [UInt8](); var i = s.startIndex
    while i < s.endIndex { let j = s.index(i, offsetBy: 2); out.append(UInt8(s[i..<j], radix: 16)!); i = j }
    return out
}
