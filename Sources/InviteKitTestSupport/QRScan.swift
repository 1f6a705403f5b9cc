import Foundation

/// Reads a drawn QR code back with zbar's `zbarimg` (package zbar-tools), so a test can check
/// that a QR carries its exact text.
package enum QRScan {
    package static let zbarimg = "/usr/bin/zbarimg"

    /// Whether `zbarimg` is installed; tests skip the scan without it.
    package static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: zbarimg) }

    /// The text zbar reads from the PNG `png` (one code, raw), and zbar's exit status.
    package static func text(in png: [UInt8]) throws -> (text: String, status: Int32) {
        let tmp = TemporaryDirectory(prefix: "ik-qr")
        let file = tmp.fileURL("code.png")
        try Data(png).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: zbarimg)
        p.arguments = ["--raw", "-q", file.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        var s = String(decoding: data, as: UTF8.self)
        if s.hasSuffix("\n") { s.removeLast() }
        return withExtendedLifetime(tmp) { (s, p.terminationStatus) }
    }
}
