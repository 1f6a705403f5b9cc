import Dispatch
import Foundation
import FuzzSupport
@_spi(Fuzzing) import InviteKit

// The node's inbound path (issue 20): one hostile event through InviteKitNode's public handlers,
// over a durable store in a temporary home. The node is FixedKeys.recipient and hosts one group.
// Modes (first byte % 4):
//  0 the rest is an event's JSON, given to handleGroupEvent (a kind-445 from a relay);
//  1 the rest is an event's JSON, given to handleGiftWrap (a kind-1059 addressed to the node);
//  2 the rest is a kind-445 content, signed by a stranger and tagged with the hosted group's
//    `h`, so it reaches the group's engine;
//  3 the rest is a rumor's content (kind from byte 1), gift-wrapped to the node by the author,
//    so it reaches the join-request decoder.
// Invariants: a refusal is a typed (CodedError) error, never a crash; after every input the home
// still opens its group list (nothing half-written broke the store).
// The lead reshapes the node API; only `handle(_:)` below calls it.

/// Fixed, non-zero bytes: the wrap's one-time key must be a valid scalar (ZeroRandom would spin
/// in key generation), and a replayed input must build the same wrap.
struct FixedRandom: RandomSource {
    func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count { buffer[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
    }
}

final class Box<T>: @unchecked Sendable { var value: T?; init() {} }

/// Runs `body` on the node's executor and waits (libFuzzer calls in synchronously).
func blocking<T>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = Box<Result<T, any Error>>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.value = .success(try await body()) } catch { box.value = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.value!.get()
}

let home: StoreHome = {
    let dir = NSTemporaryDirectory() + "invitekit-fuzz-node-\(getpid())"
    let home = StoreHome(directory: dir)
    try! InviteKitNode.initialize(home: home, relays: ["wss://relay.example.com"], importing: FixedKeys.recipient.rawRepresentation, now: 1_700_000_000)
    return home
}()
let node = try! InviteKitNode(home: home, clock: { 1_700_000_000 })
let groupTag: String = try! blocking { try await node.createGroup(name: "fuzz").nostrGroupID }

func handle(_ event: NostrEvent, giftWrap: Bool) {
    do {
        if giftWrap { _ = try blocking { try await node.fuzzGiftWrap(event) } } else { _ = try blocking { try await node.fuzzGroupEvent(event) } }
    } catch {
        invariant(error is CodedError, "untyped error from the node: \(type(of: error)) \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let (mode, rest) = input.mode(of: 4)
    switch mode {
    case 0, 1:
        guard let event = try? NostrEvent(json: rest) else { return 0 }
        handle(event, giftWrap: mode == 1)
    case 2:
        let content = String(decoding: rest, as: UTF8.self)
        guard let event = try? EventTemplate(kind: 445, content: content, tags: [["h", groupTag]], createdAt: 1_700_000_000)
            .signed(by: FixedKeys.stranger, using: ZeroRandom()) else { return 0 }
        handle(event, giftWrap: false)
    default:
        guard let kind = rest.first else { return 0 }
        let content = String(decoding: rest.dropFirst(), as: UTF8.self)
        guard let wrap = try? GiftWrap.wrap(template: EventTemplate(kind: Int(kind), content: content, tags: [], createdAt: 1_700_000_000),
                                            from: FixedKeys.author, to: FixedKeys.recipient.publicKey, now: 1_700_000_000, using: FixedRandom())
        else { return 0 }
        handle(wrap, giftWrap: true)
    }
    let groups = try? blocking { try await node.groups().map(\.nostrGroupID) }
    invariant(groups?.contains(groupTag) == true, "the hosted group is gone from the store after an input")
    return 0
}
