import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// A relay-less group: every member is a session; events are delivered by the test.
struct Delivered {
    let sealed: [UInt8]
    let createdAt: Int64
    let eventID: [UInt8]
}

final class GroupHarness {
    let rng: SeededRandom
    var sessions: [[UInt8]: GroupSession] = [:]
    var stores: [[UInt8]: MemoryKeyPackageStore] = [:]
    var clock: Int64 = 1_700_000_000

    init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    func identity() -> [UInt8] { rng.bytes(32) }

    func newKeyPackage(for id: [UInt8], lastResort: Bool = false) throws -> KeyPackage {
        let b = try KeyPackageBundle.create(identity: id, lifetime: Lifetime(notBefore: 0, notAfter: UInt64.max), lastResort: lastResort, rng: rng)
        let store = stores[id] ?? MemoryKeyPackageStore()
        try store.save(b)
        stores[id] = store
        return b.keyPackage
    }

    func createGroup() throws -> [UInt8] {
        let id = identity()
        sessions[id] = GroupSession(state: try GroupState.create(identity: id, rng: rng))
        return id
    }

    func event(_ sealed: [UInt8], at t: Int64? = nil) -> Delivered {
        clock += 1
        return Delivered(sealed: sealed, createdAt: t ?? clock, eventID: SHA256.hash(sealed))
    }

    /// Commit by `committer`, published and merged, Welcomes processed, delivered to everyone else.
    @discardableResult
    func commit(_ committer: [UInt8], _ actions: [CommitAction], deliver: Bool = true) throws -> Delivered {
        var s = sessions[committer]!
        let (bundle, sealed) = try s.createCommit(actions, rng: rng)
        let ev = event(sealed)
        let welcomes = try s.confirmPublished(bundle, sealed: sealed, createdAt: ev.createdAt, eventID: ev.eventID)
        sessions[committer] = s
        if deliver { deliverToAll(ev, except: committer) }
        for w in welcomes {
            let joiner = stores.first { (try? $0.value.bundle(reference: w.keyPackageRef)) != nil }!.key
            sessions[joiner] = try GroupSession.join(welcome: w, store: stores[joiner]!)
        }
        return ev
    }

    func deliverToAll(_ ev: Delivered, except: [UInt8]) {
        for id in Array(sessions.keys) where id != except {
            var s = sessions[id]!
            guard s.isMember else { continue }
            _ = try? s.receive(ev.sealed, createdAt: ev.createdAt, eventID: ev.eventID)
            sessions[id] = s
        }
    }

    var activeMembers: [[UInt8]] { sessions.filter { $0.value.isMember }.map(\.key) }

    func assertConverged(file: StaticString = #filePath, line: UInt = #line) {
        let active = sessions.values.filter { $0.isMember && $0.state.index(of: $0.state.ownIdentity) != nil }
        let inGroup = active.filter { s in active.allSatisfy { $0.state.epoch <= s.state.epoch } }
        let fps = Set(inGroup.map(\.state.epochFingerprint))
        XCTAssertEqual(fps.count, 1, "members disagree on the epoch secret", file: file, line: line)
        let epochs = Set(inGroup.map(\.state.epoch))
        XCTAssertEqual(epochs.count, 1, file: file, line: line)
    }
}
