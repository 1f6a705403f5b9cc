import FuzzSupport
import InviteKitCrypto
import InviteKitNostr

// NIP-59 gift wraps for a fixed recipient (NIP-59's example keys). Modes (first byte % 3):
//  0 raw: the rest is a wrap event's JSON.
//  1 seal: the rest is the seal JSON; the harness encrypts it to the recipient and signs the
//    wrap with the example's one-time key, so unwrap() gets past the wrap's signature.
//  2 rumor: the rest is the rumor JSON; the harness seals it as the example's author (a genuine
//    seal signature) and wraps it. Bit 7 of the first byte adds a tag to the seal (must fail).
// Invariants, whenever unwrap() succeeds: the wrap and seal verify, the sender is the seal's
// signer, rumor.pubkey == sender, the rumor id recomputes and it carries no sig. In mode 2 the
// sender must be the sealing author (a rumor claiming another author is never accepted), and a
// well-formed rumor by the author must be accepted (no false rejection).
let recipient = FixedKeys.recipient
let author = FixedKeys.author
let oneTime = FixedKeys.ephemeral
let wrapKey = try! NIP44.ConversationKey(privateKey: oneTime, publicKey: recipient.publicKey)
let sealKey = try! NIP44.ConversationKey(privateKey: author, publicKey: recipient.publicKey)
let nonce = [UInt8](repeating: 7, count: 32)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let (mode, rest) = input.mode(of: 3)
    let wrap: NostrEvent
    var expectSender: Secp256k1.XOnlyPublicKey?
    var mustFail = false
    switch mode {
    case 0:
        guard let w = try? NostrEvent(json: rest) else { return 0 }
        wrap = w
    case 1:
        guard let w = makeWrap(sealJSON: rest) else { return 0 }
        wrap = w
    default:
        guard !rest.isEmpty, let content = try? NIP44.encrypt(rest, conversationKey: sealKey, nonce: nonce) else { return 0 }
        let tagged = (input.bytes[0] & 0x80) != 0
        let seal = try! EventTemplate(kind: GiftWrap.sealKind, content: content, tags: tagged ? [["p", recipient.publicKey.hex]] : [],
                                      createdAt: 1_700_000_000).signed(by: author, using: ZeroRandom())
        guard let w = makeWrap(sealJSON: seal.jsonBytes) else { return 0 }
        wrap = w
        expectSender = author.publicKey
        mustFail = tagged
    }
    let result = Result { try GiftWrap.unwrap(wrap, recipient: recipient) }
    if mode == 2, !mustFail, let r = try? NostrEvent(json: rest, requireSignature: false), r.pubkey == author.publicKey.hex,
       (try? r.verifyId()) != nil {
        invariant((try? result.get()) != nil, "well-formed rumor by the sealing author was rejected: \(result)")
    }
    guard case .success(let gift) = result else { return 0 }
    invariant(!mustFail, "seal with tags accepted")
    invariant((try? gift.wrap.verify()) != nil && (try? gift.seal.verify()) != nil, "unverified wrap or seal accepted")
    invariant(gift.seal.pubkey == gift.sender.hex && gift.rumor.pubkey == gift.sender.hex, "rumor author is not the seal signer")
    invariant(gift.rumor.sig == nil && gift.rumor.computedId == gift.rumor.id, "rumor id/sig")
    invariant(gift.seal.kind == GiftWrap.sealKind && gift.wrap.kind == GiftWrap.wrapKind, "kinds")
    if let expectSender { invariant(gift.sender == expectSender, "sender is not the sealing author (forgery)") }
    return 0
}

func makeWrap(sealJSON: [UInt8]) -> NostrEvent? {
    guard !sealJSON.isEmpty, let content = try? NIP44.encrypt(sealJSON, conversationKey: wrapKey, nonce: nonce) else { return nil }
    return try? EventTemplate(kind: GiftWrap.wrapKind, content: content, tags: [["p", recipient.publicKey.hex]],
                              createdAt: 1_700_000_000).signed(by: oneTime, using: ZeroRandom())
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    emitSeedsIfAsked {
        let rumor = EventTemplate(kind: 1, content: "Are you going to the party tonight?", createdAt: 1_691_518_405)
            .rumor(pubkey: author.publicKey)
        let sealContent = try! NIP44.encrypt(rumor.jsonBytes, conversationKey: sealKey, nonce: nonce)
        let seal = try! EventTemplate(kind: GiftWrap.sealKind, content: sealContent, createdAt: 1_700_000_000)
            .signed(by: author, using: ZeroRandom())
        return [("fixture-seal", [1] + seal.jsonBytes), ("fixture-rumor", [2] + rumor.jsonBytes),
                ("fixture-wrap", [0] + makeWrap(sealJSON: seal.jsonBytes)!.jsonBytes)]
    }
    return 0
}
