import InviteKitCrypto

/// NIP-19 bech32 encodings ([NIP-19](https://github.com/nostr-protocol/nips/blob/master/19.md)).
///
/// TLV types: 0 special, 1 relay, 2 author, 3 kind (u32 BE). Unknown types are skipped and
/// TLVs may come in any order, as the NIP requires.
public enum NIP19 {
    public static func npub(_ key: Secp256k1.XOnlyPublicKey) -> String { Bech32.encode(hrp: "npub", data: key.rawRepresentation) }
    public static func note(_ id: [UInt8]) -> String { Bech32.encode(hrp: "note", data: id) }

    /// The nsec string. It is a secret: only for an explicit user export.
    public static func nsec(_ key: Secp256k1.PrivateKey) -> String {
        key.rawRepresentation.withUnsafeBytes { Bech32.encode(hrp: "nsec", data: Array($0)) }
    }

    public static func encode(_ entity: NIP19Entity) -> String {
        switch entity {
        case .npub(let k): return npub(k)
        case .nsec(let s): return s.withUnsafeBytes { Bech32.encode(hrp: "nsec", data: Array($0)) }
        case .note(let id): return note(id)
        case .nprofile(let p):
            var tlv = TLVWriter()
            tlv.add(0, p.pubkey)
            for r in p.relays { tlv.add(1, Array(r.utf8)) }
            return Bech32.encode(hrp: "nprofile", data: tlv.bytes)
        case .nevent(let e):
            var tlv = TLVWriter()
            tlv.add(0, e.id)
            for r in e.relays { tlv.add(1, Array(r.utf8)) }
            if let a = e.author { tlv.add(2, a) }
            if let k = e.kind { tlv.add(3, bigEndian(k)) }
            return Bech32.encode(hrp: "nevent", data: tlv.bytes)
        case .naddr(let a):
            var tlv = TLVWriter()
            tlv.add(0, Array(a.identifier.utf8))
            for r in a.relays { tlv.add(1, Array(r.utf8)) }
            tlv.add(2, a.author)
            tlv.add(3, bigEndian(a.kind))
            return Bech32.encode(hrp: "naddr", data: tlv.bytes)
        }
    }

    public static func decode(_ string: String) throws(NostrError) -> NIP19Entity {
        let (hrp, data) = try Bech32.decode(string.hasPrefix("nostr:") ? String(string.dropFirst(6)) : string)
        switch hrp {
        case "npub":
            guard data.count == 32, let k = try? Secp256k1.XOnlyPublicKey(rawRepresentation: data) else {
                throw NostrError(.invalidKey, "npub does not hold a valid 32-byte key")
            }
            return .npub(k)
        case "nsec":
            guard data.count == 32 else { throw NostrError(.invalidKey, "nsec must hold 32 bytes") }
            return .nsec(SecureBytes(copying: data))
        case "note":
            guard data.count == 32 else { throw NostrError(.invalidTLV, "note must hold 32 bytes") }
            return .note(data)
        case "nprofile":
            let t = try TLVReader.read(data)
            guard let pk = t[0]?.first, pk.count == 32 else { throw NostrError(.invalidTLV, "nprofile needs a 32-byte pubkey") }
            return .nprofile(.init(pubkey: pk, relays: try relays(t)))
        case "nevent":
            let t = try TLVReader.read(data)
            guard let id = t[0]?.first, id.count == 32 else { throw NostrError(.invalidTLV, "nevent needs a 32-byte id") }
            // An author TLV that is not 32 bytes is ignored rather than fatal, as other decoders do.
            let author = t[2]?.first.flatMap { $0.count == 32 ? $0 : nil }
            return .nevent(.init(id: id, relays: try relays(t), author: author, kind: try kind(t)))
        case "naddr":
            let t = try TLVReader.read(data)
            guard let ident = t[0]?.first, let identifier = String(validating: ident, as: UTF8.self) else {
                throw NostrError(.invalidTLV, "naddr needs a UTF-8 identifier")
            }
            guard let author = t[2]?.first, author.count == 32 else { throw NostrError(.invalidTLV, "naddr needs a 32-byte author") }
            guard let k = try kind(t) else { throw NostrError(.invalidTLV, "naddr needs a kind") }
            return .naddr(.init(identifier: identifier, relays: try relays(t), author: author, kind: k))
        default:
            throw NostrError(.unexpectedPrefix, "unknown NIP-19 prefix \"\(hrp)\"")
        }
    }

    private static func relays(_ t: [UInt8: [[UInt8]]]) throws(NostrError) -> [String] {
        var out = [String]()
        for r in t[1] ?? [] {
            guard let s = String(validating: r, as: UTF8.self) else { throw NostrError(.invalidTLV, "relay is not UTF-8") }
            out.append(s)
        }
        return out
    }

    private static func kind(_ t: [UInt8: [[UInt8]]]) throws(NostrError) -> UInt32? {
        guard let k = t[3]?.first else { return nil }
        guard k.count == 4 else { throw NostrError(.invalidTLV, "kind must be a 4-byte big-endian integer") }
        return k.reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
}

struct TLVWriter {
    var bytes: [UInt8] = []
    mutating func add(_ type: UInt8, _ value: [UInt8]) {
        precondition(value.count <= 255, "TLV value longer than 255 bytes")
        bytes.append(type); bytes.append(UInt8(value.count)); bytes.append(contentsOf: value)
    }
}

enum TLVReader {
    static func read(_ data: [UInt8]) throws(NostrError) -> [UInt8: [[UInt8]]] {
        var out = [UInt8: [[UInt8]]]()
        var i = 0
        while i < data.count {
            guard i + 2 <= data.count else { throw NostrError(.invalidTLV, "truncated TLV header") }
            let t = data[i], l = Int(data[i + 1])
            guard i + 2 + l <= data.count else { throw NostrError(.invalidTLV, "TLV value runs past the end") }
            out[t, default: []].append(Array(data[(i + 2)..<(i + 2 + l)]))
            i += 2 + l
        }
        return out
    }
}
