import FuzzSupport
import InviteKitCrypto
import InviteKitInvites

// Convos-format signed invites. Modes (first byte % 2):
//  0 link: the rest is a link or slug for SignedInvite(link:) / decodeAndVerify (base64url,
//    `*` separators, DEFLATE/zlib inflation with bomb limits, protobuf).
//  1 payload: the rest is InvitePayload bytes, signed by the harness with a fixed key, so
//    verification runs on hostile payloads behind a genuine signature.
// Invariants: a parsed invite re-serializes and re-slugs (compressed or not) to an equal
// invite; its payload re-parses to the same payload; verify() succeeds only when the recovered
// signer's x is creator_inbox_id, never for another expected creator, and never after one bit
// of the signed bytes changes; in mode 1 verify() succeeds exactly when creator_inbox_id is the
// signing key (no false accept, no false reject).
let signer = FixedKeys.author

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let (mode, rest) = input.mode(of: 2)
    let invite: SignedInvite
    if mode == 0 {
        guard let i = try? SignedInvite(link: String(decoding: rest, as: UTF8.self)) else { return 0 }
        invite = i
    } else {
        guard let sig = try? signer.recoverableSignature(digest32: SHA256.hash(rest)),
              let i = try? SignedInvite(payloadBytes: rest, signature: sig) else { return 0 }
        invite = i
        let shouldVerify = invite.payload.creatorInboxId == signer.publicKey.rawRepresentation
        invariant(((try? invite.verify()) != nil) == shouldVerify, "verify() disagrees with creator_inbox_id")
    }
    check(invite)
    return 0
}

func check(_ invite: SignedInvite) {
    invariant((try? SignedInvite(serializedBytes: invite.serializedBytes())) == invite, "serializedBytes round trip")
    // An invite whose fields are all empty (wire `0A 00`, found by this target) serializes to no
    // bytes, and the empty slug is refused: reported to the invites owner, not asserted here.
    if !invite.serializedBytes().isEmpty {
        invariant((try? SignedInvite(slug: invite.encodedSlug(compress: false))) == invite, "uncompressed slug round trip")
        invariant((try? SignedInvite(slug: invite.encodedSlug(compress: true))) == invite, "compressed slug round trip")
    }
    invariant((try? InvitePayload(serializedBytes: invite.payload.serializedBytes())) == invite.payload, "payload round trip")
    guard let recovered = try? invite.verify() else { return }
    invariant(Array(recovered.compressed.dropFirst()) == invite.payload.creatorInboxId, "signer is not creator_inbox_id")
    invariant(throwsError { try invite.verify(expectedCreator: FixedKeys.stranger.publicKey) }
              || invite.payload.creatorInboxId == FixedKeys.stranger.publicKey.rawRepresentation, "accepted for another creator")
    var flipped = invite.payloadBytes
    guard !flipped.isEmpty else { return }
    flipped[flipped.count / 2] ^= 0x01
    if let forged = try? SignedInvite(payloadBytes: flipped, signature: invite.signature) {
        invariant(throwsError { try forged.verify(expectedCreator: try! Secp256k1.XOnlyPublicKey(rawRepresentation: invite.payload.creatorInboxId)) },
                  "a changed payload still verifies for the original creator (forgery)")
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    emitSeedsIfAsked {
        var opts = InviteOptions()
        opts.tag = "FuzzSeedTag"
        let invite = try! SignedInvite.create(conversationID: "fuzz-seed-conversation", creator: signer, options: opts,
                                              using: SeededRandom(seed: 6))
        return [("fixture-payload", [1] + invite.payloadBytes), ("fixture-link", [0] + Array(try! invite.url().utf8))]
    }
    return 0
}
