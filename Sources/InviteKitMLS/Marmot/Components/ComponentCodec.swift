/// Helpers shared by the Marmot component codecs (the Marmot canonical encoding,
/// `shared/marmot/v2/foundation/canonical-encoding.md`; MDK v0.9.14
/// `crates/traits/src/app_components/codec.rs`): MLS/QUIC varint lengths in shortest form,
/// fixed arrays without a prefix, every byte consumed.
enum ComponentCodec {
    /// Reads `bytes` with `body`, which must consume them exactly.
    static func decode<T>(_ bytes: [UInt8], _ name: String, _ body: (inout TLSReader) throws -> T) throws -> T {
        var r = TLSReader(bytes)
        let value: T
        do { value = try body(&r) } catch let e as MLSError where e.code != .invalidComponent {
            throw MLSError(.invalidComponent, "\(name): \(e.detail.isEmpty ? e.code.rawValue : e.detail)")
        }
        guard r.isAtEnd else { throw MLSError(.invalidComponent, "\(name) has trailing bytes") }
        return value
    }

    /// `opaque x<lo..hi>` holding UTF-8.
    static func readText(_ r: inout TLSReader, max: Int, _ field: String) throws -> String {
        let bytes = try r.readOpaque()
        guard bytes.count <= max else { throw MLSError(.invalidComponent, "\(field) is \(bytes.count) bytes, above \(max)") }
        guard let s = String(validating: bytes, as: UTF8.self) else { throw MLSError(.invalidComponent, "\(field) is not UTF-8") }
        return s
    }

    static func encode(_ body: (inout TLSWriter) -> Void) -> [UInt8] {
        var w = TLSWriter(capacity: 64)
        body(&w)
        return w.bytes
    }
}
