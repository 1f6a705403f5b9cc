import FuzzSupport
import InviteKitInvites

// Whistle approval URLs (whistle://addmember/<pubkey>/<group>).
// Invariants for every accepted input: the key is a curve point (it parsed), the group id is
// non-empty, and the canonical URL parses back to the same approval and is a fixed point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let s = FuzzInput(data, size).string
    guard let approval = try? ApprovalURL(url: s) else { return 0 }
    invariant(!approval.groupId.isEmpty, "empty group id accepted")
    invariant(s.utf8.count <= ApprovalURL.maxLength, "oversized URL accepted")
    let url = approval.url
    // Known finding (reported to the invites owner): the parser caps its *input* at maxLength,
    // but a long non-ASCII group id triples when percent-encoded, so the canonical URL of an
    // accepted approval can exceed the cap and be refused. Not asserted until that is fixed.
    guard url.utf8.count <= ApprovalURL.maxLength else { return 0 }
    guard let again = try? ApprovalURL(url: url) else { invariant(false, "canonical URL does not parse: \(url)"); return 0 }
    invariant(again == approval, "canonical URL changed the approval")
    invariant(again.url == url, "canonical URL is not a fixed point")
    return 0
}
