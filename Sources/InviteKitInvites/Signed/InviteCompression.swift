internal import CZlib

/// The Convos compression framing for serialized invites (PROTOCOL.md §3.5).
///
/// Written: `0x1F | u32 BE original size | raw DEFLATE (RFC 1951)`, only when that is shorter
/// than the input. Read: the same, `0x1F | size | zlib stream (RFC 1950)` and a bare zlib stream
/// (first byte `0x78`) as other ports write; anything else is passed through as uncompressed.
/// A serialized `SignedInvite` starts with `0x0A` (field 1, length-delimited), so the three
/// markers cannot be mistaken for one.
public enum InviteCompression {
    /// First byte of the compressed framing.
    public static let marker: UInt8 = 0x1F
    /// Inflated size limit (1 MiB).
    public static let maxInflatedSize = 1 << 20
    /// Inflated / compressed size limit.
    public static let maxRatio = 100

    /// Compresses when it saves bytes and ``decompress(_:)`` will take the result (ratio at most
    /// ``maxRatio``), else returns `bytes` unchanged.
    public static func compressIfSmaller(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > 5, bytes.count <= maxInflatedSize, let deflated = rawDeflate(bytes),
              deflated.count + 5 < bytes.count, bytes.count <= deflated.count * maxRatio else { return bytes }
        var out = [UInt8]()
        out.reserveCapacity(deflated.count + 5)
        out.append(marker)
        let n = UInt32(bytes.count)
        out.append(contentsOf: [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)])
        out.append(contentsOf: deflated)
        return out
    }

    /// Undoes ``compressIfSmaller(_:)`` and reads the zlib variants; returns other input as is.
    public static func decompress(_ bytes: [UInt8]) throws(InviteError) -> [UInt8] {
        guard let first = bytes.first else { return bytes }
        if first == marker {
            guard bytes.count >= 6 else { throw InviteError(.decompressionFailed, "framing shorter than its header") }
            let declared = Int(bytes[1]) << 24 | Int(bytes[2]) << 16 | Int(bytes[3]) << 8 | Int(bytes[4])
            let body = bytes[5...]
            guard declared <= maxInflatedSize else { throw InviteError(.decompressedTooLarge, "declared \(declared) bytes") }
            guard declared <= body.count * maxRatio else { throw InviteError(.compressionRatioExceeded, "declared \(declared) from \(body.count)") }
            let zlib = looksLikeZlib(body)
            var out: [UInt8]
            do {
                out = try inflate(body, zlibWrapped: zlib, limit: declared, overflow: .sizeMismatch)
            } catch let e where zlib && e.code == .decompressionFailed {
                // A raw stream can begin with bytes that pass the zlib header check.
                out = try inflate(body, zlibWrapped: false, limit: declared, overflow: .sizeMismatch)
            }
            guard out.count == declared else { throw InviteError(.sizeMismatch, "declared \(declared), inflated \(out.count)") }
            return out
        }
        if first == 0x78, looksLikeZlib(bytes[...]) {
            let byRatio = bytes.count * maxRatio
            let limit = min(maxInflatedSize, byRatio)
            return try inflate(bytes[...], zlibWrapped: true, limit: limit,
                               overflow: byRatio < maxInflatedSize ? .compressionRatioExceeded : .decompressedTooLarge)
        }
        return bytes
    }

    static func looksLikeZlib(_ b: ArraySlice<UInt8>) -> Bool {
        guard b.count >= 2 else { return false }
        let cmf = b[b.startIndex], flg = b[b.startIndex + 1]
        return cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 && flg & 0x20 == 0
    }

    static func rawDeflate(_ input: [UInt8], zlibWrapped: Bool = false) -> [UInt8]? {
        var stream = z_stream()
        // The window only needs to cover the input (invites are a few hundred bytes), and a small
        // window and memLevel keep deflateInit's allocations and table clearing cheap. Readers
        // always inflate with a 32 KiB window, which reads any smaller one.
        var bits: Int32 = 9
        while bits < 15 && (1 << bits) < input.count { bits += 1 }
        let memLevel: Int32 = input.count <= 4096 ? 4 : 8
        guard deflateInit2_(&stream, 6, Z_DEFLATED, zlibWrapped ? 15 : -bits, memLevel, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var out = [UInt8](repeating: 0, count: bound)
        let rc: Int32 = input.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
                stream.avail_in = uInt(inp.count)
                stream.next_out = o.baseAddress
                stream.avail_out = uInt(o.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard rc == Z_STREAM_END else { return nil }
        out.removeLast(bound - Int(stream.total_out))
        return out
    }

    /// Inflates incrementally into a buffer that never grows past `limit + 1` bytes, so a
    /// decompression bomb is stopped after at most `limit` bytes of work.
    static func inflate(
        _ input: ArraySlice<UInt8>, zlibWrapped: Bool, limit: Int, overflow: InviteError.Code
    ) throws(InviteError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, zlibWrapped ? 15 : -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw InviteError(.decompressionFailed, "inflateInit failed")
        }
        defer { inflateEnd(&stream) }
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: min(limit + 1, 16 * 1024))
        var finished = false
        var failure: InviteError?
        input.withUnsafeBufferPointer { inp in
            stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
            stream.avail_in = uInt(inp.count)
            while !finished {
                let room = min(chunk.count, limit + 1 - out.count)
                let (rc, produced): (Int32, Int) = chunk.withUnsafeMutableBufferPointer { c in
                    stream.next_out = c.baseAddress
                    stream.avail_out = uInt(room)
                    let rc = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (rc, room - Int(stream.avail_out))
                }
                out.append(contentsOf: chunk[0..<produced])
                if out.count > limit {
                    failure = InviteError(overflow, "more than \(limit) bytes"); return
                }
                switch rc {
                case Z_STREAM_END:
                    finished = true
                case Z_OK:
                    if produced == 0 && stream.avail_in == 0 {
                        failure = InviteError(.decompressionFailed, "stream truncated"); return
                    }
                case Z_BUF_ERROR:
                    if stream.avail_in == 0 { failure = InviteError(.decompressionFailed, "stream truncated"); return }
                    if room == 0 { failure = InviteError(overflow, "more than \(limit) bytes"); return }
                default:
                    failure = InviteError(.decompressionFailed, "corrupt stream"); return
                }
            }
            if stream.avail_in != 0 { failure = InviteError(.decompressionFailed, "trailing bytes after the stream") }
        }
        if let failure { throw failure }
        return out
    }
}
