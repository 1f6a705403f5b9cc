import FuzzSupport
import InviteKitContentTypes

// XMTP EncodedContent protobuf (EncodedContent(serialized:)), then the standard codecs.
// Invariants: what parses re-serializes deterministically, and that serialization parses to
// the same value and is a fixed point; the size cap holds; content that the InviteJoinError
// codec reads encodes and decodes back to the same error (reason, tag, type, whole seconds).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard let ec = try? EncodedContent(serialized: bytes) else { return 0 }
    invariant(bytes.count <= EncodedContent.maxSerializedBytes, "oversized input accepted")
    let wire = ec.serialized()
    invariant(wire == ec.serialized(), "serialization is not deterministic")
    guard let again = try? EncodedContent(serialized: wire) else { invariant(false, "serialization does not parse"); return 0 }
    invariant(again == ec, "round trip changed the content")
    invariant(again.serialized() == wire, "serialization is not a fixed point")

    let codec = InviteJoinErrorCodec()
    if let e = try? codec.decode(ec) {
        invariant(ec.compression == nil && ec.type.isCompatible(with: .inviteJoinError), "codec read an incompatible type")
        guard let back = try? codec.decode(codec.encode(e)) else { invariant(false, "re-encoded error does not decode"); return 0 }
        invariant(back.errorType == e.errorType && back.inviteTag == e.inviteTag && back.reason == e.reason, "error fields changed")
    }
    return 0
}
