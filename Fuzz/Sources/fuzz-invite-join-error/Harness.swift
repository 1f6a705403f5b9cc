import Foundation
import FuzzSupport
import InviteKitContentTypes

// convos.org/invite_join_error:1.0 JSON (InviteJoinErrorCodec().decode).
// Invariants for every accepted input: the reason is at most 500 characters; encode→decode
// keeps type, tag and reason and truncates the timestamp to whole seconds; a second
// encode→decode is an exact fixed point; the fallback text is the type's user-facing message.
let codec = InviteJoinErrorCodec()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard let e = try? codec.decode(EncodedContent(type: .inviteJoinError, content: bytes)) else { return 0 }
    invariant((e.reason?.count ?? 0) <= InviteJoinError.maxReasonLength, "reason over the limit")
    guard let encoded = try? codec.encode(e), let back = try? codec.decode(encoded) else {
        invariant(false, "accepted error does not re-encode and decode"); return 0
    }
    invariant(back.errorType == e.errorType && back.inviteTag == e.inviteTag && back.reason == e.reason, "fields changed")
    invariant(abs(back.timestamp.timeIntervalSince(e.timestamp)) < 1, "timestamp moved by a second or more")
    invariant(encoded.fallback == e.userFacingMessage, "fallback is not the user-facing message")
    let twice = try? codec.decode(codec.encode(back))
    invariant(twice == back, "second round trip is not a fixed point")
    return 0
}
