extension QRCode {
    /// A PNG of the symbol: dark modules black on white, `scale` pixels per module, with a
    /// quiet zone of `quietZone` modules (4 per the standard).
    public func pngData(scale: Int = 8, quietZone: Int = 4) throws(InviteError) -> [UInt8] {
        guard scale >= 1, scale <= 64, quietZone >= 0, quietZone <= 16 else {
            throw InviteError(.invalidArgument, "scale 1...64, quiet zone 0...16")
        }
        let side = (size + 2 * quietZone) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for my in 0..<size {
            for mx in 0..<size where isDark(x: mx, y: my) {
                let px = (mx + quietZone) * scale, py = (my + quietZone) * scale
                for dy in 0..<scale {
                    let row = (py + dy) * side + px
                    for dx in 0..<scale { pixels[row + dx] = 0 }
                }
            }
        }
        return try PNGWriter.greyscale(width: side, height: side, pixels: pixels)
    }
}
