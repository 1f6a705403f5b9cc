internal import CQREncode

/// A QR code symbol (ISO/IEC 18004) made by libqrencode, as a square of modules.
public struct QRCode: Sendable, Hashable {
    /// Error-correction level.
    public enum Level: Sendable {
        case low, medium, quartile, high
    }

    /// Modules per side.
    public let size: Int
    /// Row-major, `true` = dark.
    public let modules: [Bool]
    /// Largest payload this type accepts; version 40 at level L holds 2953 bytes.
    public static let maxPayloadBytes = 2953

    /// Encodes `text` in byte mode (URLs are mixed case, so alphanumeric mode cannot hold them).
    /// Level M (15 % recovery) by default; long invites that do not fit fall back to level L.
    public init(text: String, level: Level = .medium) throws(InviteError) {
        guard !text.isEmpty, text.utf8.count <= Self.maxPayloadBytes else {
            throw InviteError(.inputTooLarge, "QR payload of \(text.utf8.count) bytes")
        }
        let levels: [Level] = level == .low ? [.low] : [level, .low]
        for l in levels {
            if let qr = Self.encode(text, level: l) { self = qr; return }
        }
        throw InviteError(.inputTooLarge, "does not fit in a QR code")
    }

    init(size: Int, modules: [Bool]) {
        self.size = size
        self.modules = modules
    }

    /// Whether the module at (`x`, `y`) is dark; outside the symbol everything is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    private static func encode(_ text: String, level: Level) -> QRCode? {
        let ec: QRecLevel
        switch level {
        case .low: ec = QR_ECLEVEL_L
        case .medium: ec = QR_ECLEVEL_M
        case .quartile: ec = QR_ECLEVEL_Q
        case .high: ec = QR_ECLEVEL_H
        }
        // 8-bit data: libqrencode's string API would pick kanji/alnum modes heuristically.
        let bytes = Array(text.utf8)
        guard let q = bytes.withUnsafeBufferPointer({ QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, ec) }) else { return nil }
        defer { QRcode_free(q) }
        let w = Int(q.pointee.width)
        var modules = [Bool](repeating: false, count: w * w)
        for i in 0..<(w * w) { modules[i] = q.pointee.data[i] & 1 == 1 }
        return QRCode(size: w, modules: modules)
    }
}
