import FuzzSupport
import InviteKitCrypto
import InviteKitNostr

// NIP-01 event JSON (NostrEvent(json:)) and the strict JSON parser under it.
// Invariants:
//  - any JSON the parser accepts re-serializes (JSONWriter) to JSON that parses to the same value;
//  - a parsed event's wire form parses back to the same event, and that wire form is a fixed point;
//  - shape rules hold after parsing (lowercase hex lengths, kind 0...65535, created_at >= 0);
//  - requireSignature: true accepts exactly the events that carry a sig;
//  - an event that verifies has id == SHA-256(canonical serialization), and the same event with
//    its content changed (id recomputed or not) never verifies: no forged signature is accepted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size).bytes

    if let value = try? JSONParser.parse(input, maxDepth: 8) {
        var w = JSONWriter()
        w.value(value)
        let again = try? JSONParser.parse(w.bytes, maxDepth: 8)
        invariant(again == value, "JSON value changed across write/parse")
    }

    guard let event = try? NostrEvent(json: input, requireSignature: false) else { return 0 }
    invariant(event.id.utf8.count == 64 && event.pubkey.utf8.count == 64, "hex field lengths")
    invariant((0...65535).contains(event.kind) && event.createdAt >= 0, "kind/created_at range")
    invariant(event.sig == nil || event.sig!.utf8.count == 128, "sig length")

    let wire = event.jsonBytes
    guard let reparsed = try? NostrEvent(json: wire, requireSignature: false) else {
        invariant(false, "wire form of a parsed event does not parse"); return 0
    }
    invariant(reparsed == event, "event changed across jsonBytes/parse")
    invariant(reparsed.jsonBytes == wire, "jsonBytes is not a fixed point")
    invariant(((try? NostrEvent(json: input, requireSignature: true)) != nil) == (event.sig != nil),
              "requireSignature disagrees with the presence of sig")

    // The canonical serialization must itself be JSON with the same fields.
    let canon = NostrEvent.canonicalSerialization(pubkey: event.pubkey, createdAt: event.createdAt, kind: event.kind,
                                                  tags: event.tags, content: event.content)
    guard let arr = (try? JSONParser.parse(canon, maxDepth: 4))?.arrayValue, arr.count == 6 else {
        invariant(false, "canonical serialization is not a 6-element JSON array"); return 0
    }
    invariant(arr[5].stringValue == event.content && arr[1].stringValue == event.pubkey, "canonical fields differ")

    if (try? event.verify()) != nil {
        invariant(event.computedId == event.id, "verified event with a wrong id")
        invariant(Hex.encode(SHA256.hash(canon)) == event.id, "verified id is not SHA-256 of the canonical form")
        var tampered = event
        tampered.content += "!"
        invariant(throwsError { try tampered.verify() }, "tampered content still verifies")
        tampered.id = tampered.computedId
        invariant(throwsError { try tampered.verify() }, "tampered content with recomputed id still verifies (forgery)")
        var other = event
        other.pubkey = FixedKeys.stranger.publicKey.hex
        other.id = other.computedId
        invariant(other.pubkey == event.pubkey || throwsError { try other.verify() }, "signature accepted for another key")
    }
    return 0
}
