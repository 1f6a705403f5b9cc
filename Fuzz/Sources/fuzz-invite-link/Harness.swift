import FuzzSupport
import InviteKitCrypto
import InviteKitMLS

// Marmot private group invite links v1 (PROTOCOL §5.14): every record decoder, the code's text
// form and the preview's AEAD, fed hostile bytes. Modes (first byte % 14):
//  0 code bytes                 1 code text (marmot1…)        2 link entry (0x800e entry)
//  3 component InviteLinksV1    4 request / refresh           5 withdrawal
//  6 preview plaintext          7 status                      8 admin record (grant, forward)
//  9 admin batch (bytes)       10 admin batch (kind-461 content)
// 11 Nostr offer               12 Nostr request                13 preview nonce[12] || ciphertext,
//                                                                 opened under a fixed code
// Invariants: the draft says decoders reject non-canonical bytes rather than normalize them
// (`foundation/invite-link-records.md`, "Encoding and scope"), so whatever decodes re-encodes to
// exactly the input; a code's text decodes to the code its bytes do; a component that decodes
// is a valid transition from nothing or rejected as one, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 14)
    switch mode {
    case 0: canonical(rest, InviteCodeV1.init(decoding:), \.encoded, "code")
    case 1:
        guard let text = String(validating: rest, as: UTF8.self), let code = try? InviteCodeV1(bech32m: text) else { return 0 }
        invariant((try? InviteCodeV1(decoding: code.encoded))?.encoded == code.encoded, "a code's text decodes to bytes that do not")
        invariant((try? InviteCodeV1(bech32m: code.bech32m))?.encoded == code.encoded, "a code's text does not round-trip")
    case 2: canonical(rest, InviteLinkV1.init(decoding:), \.encoded, "link entry")
    case 3:
        canonical(rest, InviteLinksV1.init(decoding:), \.encoded, "component")
        if let links = try? InviteLinksV1(decoding: rest) {
            _ = try? InviteLinksV1.validateTransition(from: nil, to: links, facts: InviteLinksCommitFacts())
        }
    case 4: canonical(rest, InviteRequestV1.init(decoding:), \.encoded, "request")
    case 5: canonical(rest, InviteWithdrawalV1.init(decoding:), \.encoded, "withdrawal")
    case 6: canonical(rest, InvitePreviewV1.init(decoding:), \.encoded, "preview")
    case 7: canonical(rest, InviteStatusV1.init(decoding:), \.encoded, "status")
    case 8: canonical(rest, InviteAdminRecordV1.init(decoding:), \.encoded, "admin record")
    case 9: canonical(rest, InviteAdminBatchV1.init(decoding:), \.encoded, "admin batch")
    case 10:
        guard let text = String(validating: rest, as: UTF8.self), let batch = try? InviteAdminBatchV1(content: text) else { return 0 }
        invariant((try? InviteAdminBatchV1(decoding: batch.encoded))?.encoded == batch.encoded, "a batch's content does not round-trip")
    case 11: canonical(rest, NostrInviteOfferV1.init(decoding:), \.encoded, "offer")
    case 12: canonical(rest, NostrInviteRequestV1.init(decoding:), \.encoded, "Nostr request")
    default:
        guard rest.count >= 12, let code = fixedCode else { return 0 }
        _ = try? InvitePreviewV1.open(nonce: Array(rest.prefix(12)), ciphertext: Array(rest.dropFirst(12)), code: code)
    }
    return 0
}

/// What decodes re-encodes to exactly `bytes`, and decodes again to the same encoding.
private func canonical<T>(_ bytes: [UInt8], _ decode: ([UInt8]) throws -> T, _ encode: (T) -> [UInt8], _ what: String) {
    guard let value = try? decode(bytes) else { return }
    invariant(encode(value) == bytes, "a \(what) decoded from non-canonical bytes")
}

/// A fixed code whose preview key mode 13 attacks.
private let fixedCode: InviteCodeV1? = try? InviteCodeV1(
    inboxPublicKey: FixedKeys.author.publicKey.rawRepresentation, linkID: [UInt8](repeating: 7, count: 32),
    bearer: SecureBytes(copying: [UInt8](repeating: 8, count: 32)), previewKey: SecureBytes(copying: [UInt8](repeating: 9, count: 32)),
    requestRelays: ["wss://relay.example"])
