import FuzzSupport
import InviteKitInvites
import InviteKitNostr

// Whistle invite codes: InviteCode(code:) and InviteCode(url:).
// Invariants for every accepted input: the canonical code and URL decode back to the same
// invite; the canonical code is a fixed point; the npub is a valid key; bounded input only.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let s = FuzzInput(data, size).string
    for parsed in [try? InviteCode(code: s), try? InviteCode(url: s)] {
        guard let invite = parsed else { continue }
        invariant(s.utf8.count <= InviteCode.maxInputLength * 3, "oversized input accepted")
        invariant(invite.inviterKey != nil, "accepted an invalid npub")
        let code = invite.code
        guard let fromCode = try? InviteCode(code: code) else { invariant(false, "canonical code does not decode"); continue }
        invariant(fromCode == invite, "canonical code round trip changed the invite")
        invariant(fromCode.code == code, "canonical code is not a fixed point")
        invariant((try? InviteCode(url: invite.url)) == invite, "URL round trip changed the invite")
    }
    return 0
}
