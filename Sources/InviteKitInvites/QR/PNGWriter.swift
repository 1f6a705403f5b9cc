internal import CZlib

/// A minimal PNG encoder (PNG spec, 2nd ed.): 8-bit greyscale, IHDR/IDAT/IEND, zlib from
/// libz, CRC-32 from libz. Enough for QR codes; no interlacing, filter type 0 on every row.
public enum PNGWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `pixels` is row-major greyscale, `width * height` bytes (0 black … 255 white).
    public static func greyscale(width: Int, height: Int, pixels: [UInt8]) throws(InviteError) -> [UInt8] {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, pixels.count == width * height else {
            throw InviteError(.invalidArgument, "bad image dimensions")
        }
        var raw = [UInt8]()
        raw.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            raw.append(0)
            raw.append(contentsOf: pixels[(y * width)..<((y + 1) * width)])
        }
        var destLen = compressBound(uLong(raw.count))
        var idat = [UInt8](repeating: 0, count: Int(destLen))
        let rc = compress2(&idat, &destLen, raw, uLong(raw.count), Z_BEST_COMPRESSION)
        guard rc == Z_OK else { throw InviteError(.invalidArgument, "zlib compress failed") }
        idat.removeLast(idat.count - Int(destLen))

        var ihdr = [UInt8]()
        ihdr += be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [8, 0, 0, 0, 0]  // bit depth 8, colour type 0 (greyscale), deflate, filter 0, no interlace
        var png = signature
        png += chunk("IHDR", ihdr)
        png += chunk("IDAT", idat)
        png += chunk("IEND", [])
        return png
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let t = Array(type.utf8)
        var crc = crc32(0, t, uInt(t.count))
        if !data.isEmpty { crc = crc32(crc, data, uInt(data.count)) }
        return be32(UInt32(data.count)) + t + data + be32(UInt32(crc))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
}
