import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitNostr

/// vectors/external/nip19-examples.json: all 14 entries, one of which must be rejected.
final class NIP19VectorTests: XCTestCase {
    func testAllExamples() throws {
        let root = try VectorFiles.json("external/nip19-examples.json") as! [String: Any]
        let examples = root["examples"] as! [[String: Any]]
        XCTAssertEqual(examples.count, 14)
        var rejected = 0
        for e in examples {
            let text = e["bech32"] as! String
            guard e["valid"] as! Bool else {
                XCTAssertThrowsError(try NIP19.decode(text), text)
                rejected += 1
                continue
            }
            let d = e["decoded"] as! [String: Any]
            let entity = try NIP19.decode(text)
            switch entity {
            case .npub(let k): XCTAssertEqual(k.hex, d["hex"] as? String)
            case .nsec(let s): XCTAssertEqual(Hex.encode(s.exportBytes()), d["hex"] as? String)
            case .note(let id): XCTAssertEqual(Hex.encode(id), d["hex"] as? String)
            case .nprofile(let p):
                XCTAssertEqual(Hex.encode(p.pubkey), d["pubkey"] as? String)
                XCTAssertEqual(p.relays, d["relays"] as? [String])
            case .nevent(let ev):
                XCTAssertEqual(Hex.encode(ev.id), d["id"] as? String)
                XCTAssertEqual(ev.relays, d["relays"] as? [String])
                XCTAssertEqual(ev.author.map { Hex.encode($0) }, d["author"] as? String)
                XCTAssertEqual(ev.kind.map(Int.init), d["kind"] as? Int)
            case .naddr(let a):
                XCTAssertEqual(a.identifier, d["identifier"] as? String)
                XCTAssertEqual(Hex.encode(a.author), d["pubkey"] as? String)
                XCTAssertEqual(Int(a.kind), d["kind"] as? Int)
                XCTAssertEqual(a.relays, d["relays"] as? [String])
            }
            if e["roundtrip_reencodes_exactly"] as? Bool == true {
                XCTAssertEqual(NIP19.encode(entity), text)
            }
        }
        XCTAssertEqual(rejected, 1)
    }

    func testTLVRoundTripsAndUnknownTypesAreSkipped() throws {
        let author = [UInt8](repeating: 0x11, count: 32)
        let ev = NIP19Entity.NEvent(id: [UInt8](repeating: 0xab, count: 32), relays: ["wss://a", "wss://b"], author: author, kind: 30443)
        guard case .nevent(let back) = try NIP19.decode(NIP19.encode(.nevent(ev))) else { return XCTFail() }
        XCTAssertEqual(back, ev)
        // Unknown TLV type 9 first, then the fields in reverse order.
        var tlv = TLVWriter()
        tlv.add(9, [1, 2, 3]); tlv.add(3, [0, 0, 0x75, 0x3b]); tlv.add(2, author); tlv.add(0, Array("d".utf8))
        guard case .naddr(let a) = try NIP19.decode(Bech32.encode(hrp: "naddr", data: tlv.bytes)) else { return XCTFail() }
        XCTAssertEqual(a.kind, 30011); XCTAssertEqual(a.identifier, "d"); XCTAssertEqual(a.author, author)
    }
}
