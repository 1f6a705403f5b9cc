import EngineFixture
import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS
import InviteKitNostr

// The kind-445 envelope (MIP-03): ChaCha20-Poly1305 under the epoch's exporter key, padded
// base64, inside a Nostr event with an `h` tag. Modes (first byte % 4):
//  0 content: the rest as the event content, opened with Bob's epoch-1 key. Only the fixture's
//    two genuine contents open.
//  1 round trip: nonce (12 bytes) || plaintext sealed with Bob's key opens to the plaintext, and
//    flipping any one bit (position from the plaintext's first bytes) makes it fail.
//  2 event: the rest as event JSON handed to Bob's MarmotGroup.receive.
//  3 sealed hostile MLS: the rest, sealed correctly under Bob's key in a well-formed event.
// For 2 and 3: a message, commit or leave request comes out only for the genuine MLS messages;
// everything else is rejected, buffered or a duplicate, and leaves the epoch and engine state as
// they were.
let g = EngineFixture.group
let key = EngineFixture.bobKey
let genuineContents = [g.applicationEvent.content, g.commitEvent.content]
let genuineMLS = [g.application, g.commit, g.proposal]
let bobBefore = EngineFixture.fingerprint(g.bob.state)

/// Replays fixed bytes: the nonce of mode 1 and the signing key of mode 3.
final class FixedRandom: RandomSource, @unchecked Sendable {
    var queue: [UInt8]
    init(_ bytes: [UInt8]) { queue = bytes }
    func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count { buffer[i] = queue.isEmpty ? 0x5a : queue.removeFirst() }
    }
}

func deliver(_ event: NostrEvent, mls: [UInt8]?) {
    var bob = g.bob
    let receipt = bob.ingest(event: event, now: EngineFixture.now + 10)
    let outcomes = receipt.outcomes
    var accepted = false
    for o in outcomes {
        switch o {
        case .message, .commitApplied, .leaveRequest, .removed, .rolledBack, .superseded: accepted = true
        case .rejected, .buffered, .evicted, .duplicate: break
        }
    }
    invariant(accepted || !receipt.stateChanged, "a refused kind-445 event reported a state change: \(outcomes)")
    invariant(accepted || !receipt.seenChanged, "a refused kind-445 event was recorded as seen: \(outcomes)")
    invariant(bob.buffer.count <= MarmotProfile.bufferedEventLimit && bob.buffer.byteCount <= MarmotProfile.bufferedByteLimit,
              "the buffer passed its bounds")
    if accepted {
        let genuine = genuineContents.contains(event.content) || (mls.map { genuineMLS.contains($0) } ?? false)
        invariant(genuine, "a hostile kind-445 event produced \(outcomes)")
    } else {
        invariant(bob.epoch == g.bob.epoch && EngineFixture.fingerprint(bob.state) == bobBefore, "a refused kind-445 event changed the state")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 4)
    switch mode {
    case 0:
        let content = String(decoding: rest, as: UTF8.self)
        if (try? GroupEventCipher.open(content, key: key)) != nil {
            invariant(genuineContents.contains(content), "hostile content opened under the epoch key")
        }
        if (try? GroupEventCipher.open(bytes: rest, key: key)) != nil {
            invariant(genuineContents.contains { Base64.decode($0) == rest }, "hostile bytes opened under the epoch key")
        }
    case 1:
        guard rest.count >= GroupEventCipher.nonceByteCount else { return 0 }
        let plaintext = Array(rest.dropFirst(GroupEventCipher.nonceByteCount))
        let content = try! GroupEventCipher.seal(plaintext, key: key, rng: FixedRandom(Array(rest.prefix(GroupEventCipher.nonceByteCount))))
        invariant((try? GroupEventCipher.open(content, key: key)) == plaintext, "sealed content does not open to its plaintext")
        var sealed = Base64.decode(content)!
        var taker = ByteTaker(plaintext)
        let bit = taker.uint16() % (sealed.count * 8)
        sealed[bit / 8] ^= 1 << UInt8(bit % 8)
        invariant(throwsError { try GroupEventCipher.open(bytes: sealed, key: key) }, "a flipped bit still opened")
    case 2:
        guard let event = try? NostrEvent(json: String(decoding: rest, as: UTF8.self)) else { return 0 }
        deliver(event, mls: nil)
    default:
        guard let event = try? MarmotGroupEvent.make(mlsMessage: rest, nostrGroupID: g.bob.nostrGroupID, key: key,
                                                     createdAt: EngineFixture.now + 5, rng: FixedRandom([])) else { return 0 }
        deliver(event, mls: rest)
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    var bob = g.bob
    let outcomes = bob.receive(event: g.applicationEvent, now: EngineFixture.now + 10)
    guard case .message? = outcomes.first else { fatalError("fixture message did not open: \(outcomes)") }
    emitSeedsIfAsked {
        [("fixture-content-app", [0] + Array(g.applicationEvent.content.utf8)), ("fixture-content-commit", [0] + Array(g.commitEvent.content.utf8)),
         ("fixture-roundtrip", [1] + [UInt8](repeating: 7, count: 12) + Array("hello".utf8)),
         ("fixture-event-app", [2] + g.applicationEvent.jsonBytes), ("fixture-event-commit", [2] + g.commitEvent.jsonBytes),
         ("fixture-sealed-app", [3] + g.application), ("fixture-sealed-commit", [3] + g.commit), ("fixture-sealed-proposal", [3] + g.proposal)]
    }
    return 0
}
