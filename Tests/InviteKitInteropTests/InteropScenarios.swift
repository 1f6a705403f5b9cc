import XCTest
import InviteKitNostr

/// The interop scenarios of issue 11, written once over ``InteropMember`` so the same steps run
/// MDK↔MDK (proving the harness) and InviteKit↔MDK in both directions.
enum InteropScenarios {
    static let relays = ["wss://relay.invitekit.test"]

    /// `creator` makes a group and invites `joiner` from its KeyPackage; both read each other.
    /// Returns the group id.
    @discardableResult
    static func createAndJoin(creator: InteropMember, joiner: InteropMember, admins: [String]? = nil,
                              file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let kp = try joiner.keyPackageEvent(relays: relays)
        let (group, _) = try creator.createGroup(name: "interop", relays: relays, admins: admins ?? [creator.pubkey], inviting: [kp])
        let welcomes = try creator.mergePendingCommit(group: group)
        let wrap = try XCTUnwrap(welcomes.wrap(for: joiner.pubkey), "no Welcome for \(joiner.label)", file: file, line: line)
        XCTAssertEqual(wrap.kind, 1059, file: file, line: line)
        XCTAssertEqual(try joiner.join(welcome: wrap), group, "joined another group", file: file, line: line)
        XCTAssertEqual(try joiner.epoch(group: group), try creator.epoch(group: group), "epochs differ after join", file: file, line: line)
        XCTAssertEqual(try joiner.members(group: group), [creator.pubkey, joiner.pubkey], file: file, line: line)
        XCTAssertEqual(try creator.members(group: group), [creator.pubkey, joiner.pubkey], file: file, line: line)
        try exchange(group, [creator, joiner], tag: "after join", file: file, line: line)
        return group
    }

    /// Every member sends one message and every other member reads it with the right sender.
    static func exchange(_ group: String, _ members: [InteropMember], tag: String,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        for sender in members {
            let text = "\(tag): hello from \(sender.label)"
            let event = try sender.send(text, group: group)
            XCTAssertEqual(event.kind, 445, file: file, line: line)
            XCTAssertNotEqual(event.pubkey, sender.pubkey, "kind 445 must be signed by a fresh key", file: file, line: line)
            for reader in members where reader !== sender {
                XCTAssertEqual(try reader.process(event), .message(sender: sender.pubkey, content: text),
                               "\(reader.label) reading \(sender.label) (\(tag))", file: file, line: line)
            }
        }
    }

    /// `committer` publishes a commit; every other listed member applies it, then the committer
    /// merges. Returns the Welcomes the merge released.
    @discardableResult
    static func publish(_ change: InteropChange, by committer: InteropMember, group: String, to others: [InteropMember],
                        file: StaticString = #filePath, line: UInt = #line) throws -> [InteropChange.Welcome] {
        let commit = try XCTUnwrap(change.commit, "no commit", file: file, line: line)
        for m in others {
            XCTAssertEqual(try m.process(commit), .commit, "\(m.label) applying \(committer.label)'s commit", file: file, line: line)
        }
        return try committer.mergePendingCommit(group: group)
    }

    /// Add, self-update and remove, each committed from both sides, with messages after every epoch,
    /// and a removed member that reads nothing afterwards. `a` and `b` are both admins; `c` and `d`
    /// are joiners backed by either implementation.
    static func commitsFromEitherSide(a: InteropMember, b: InteropMember, c: InteropMember, d: InteropMember,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        let group = try createAndJoin(creator: a, joiner: b, admins: [a.pubkey, b.pubkey], file: file, line: line)

        // b adds c; a processes; c joins.
        let addC = try b.addMembers([try c.keyPackageEvent(relays: relays)], group: group)
        let welcomesC = try publish(addC, by: b, group: group, to: [a], file: file, line: line)
        XCTAssertEqual(try c.join(welcome: try XCTUnwrap(welcomesC.wrap(for: c.pubkey))), group, file: file, line: line)
        try exchange(group, [a, b, c], tag: "after b added c", file: file, line: line)

        // a adds d; b and c process; d joins.
        let addD = try a.addMembers([try d.keyPackageEvent(relays: relays)], group: group)
        let welcomesD = try publish(addD, by: a, group: group, to: [b, c], file: file, line: line)
        XCTAssertEqual(try d.join(welcome: try XCTUnwrap(welcomesD.wrap(for: d.pubkey))), group, file: file, line: line)
        try exchange(group, [a, b, c, d], tag: "after a added d", file: file, line: line)

        // Self-updates from each side.
        for updater: InteropMember in [b, a, c] {
            let all: [InteropMember] = [a, b, c, d]
            let others = all.filter { $0 !== updater }
            try publish(try updater.selfUpdate(group: group), by: updater, group: group, to: others, file: file, line: line)
            try exchange(group, [a, b, c, d], tag: "after \(updater.label) self-update", file: file, line: line)
        }
        let epoch = try a.epoch(group: group)
        for m in [b, c, d] { XCTAssertEqual(try m.epoch(group: group), epoch, "\(m.label) epoch", file: file, line: line) }

        // b removes c; a removes d. The removed member processes its removal and reads nothing after.
        let removeC = try b.removeMembers([c.pubkey], group: group)
        let removeCCommit = try XCTUnwrap(removeC.commit)
        for m in [a, d] { XCTAssertEqual(try m.process(removeCCommit), .commit, "\(m.label) applying b's remove", file: file, line: line) }
        _ = try c.process(removeCCommit)
        try b.mergePendingCommit(group: group)
        try expectUnreadable(group, by: c, senders: [a, b, d], file: file, line: line)
        try exchange(group, [a, b, d], tag: "after c removed", file: file, line: line)

        let removeD = try a.removeMembers([d.pubkey], group: group)
        let removeDCommit = try XCTUnwrap(removeD.commit)
        XCTAssertEqual(try b.process(removeDCommit), .commit, file: file, line: line)
        _ = try d.process(removeDCommit)
        try a.mergePendingCommit(group: group)
        try expectUnreadable(group, by: d, senders: [a, b], file: file, line: line)
        try exchange(group, [a, b], tag: "after d removed", file: file, line: line)
        XCTAssertEqual(try a.members(group: group), [a.pubkey, b.pubkey], file: file, line: line)
        XCTAssertEqual(try b.members(group: group), [a.pubkey, b.pubkey], file: file, line: line)
    }

    /// Messages sent after `reader`'s removal never come out as messages for it.
    static func expectUnreadable(_ group: String, by reader: InteropMember, senders: [InteropMember],
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        for s in senders {
            let secret = "not for \(reader.label)"
            let event = try s.send(secret, group: group)
            let outcome = try reader.process(event)
            XCTAssertFalse(outcome.isMessage, "removed \(reader.label) read \(s.label)'s message: \(outcome)", file: file, line: line)
        }
    }

    /// `makers` each publish KeyPackages (`count` in all); `consumer` adds them all in one commit in
    /// the same second they were made, and every new member joins and reads the group.
    static func keyPackagesConsumedAtOnce(consumer: InteropMember, makers: [InteropMember], count: Int,
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        var kps: [NostrEvent] = []
        for i in 0..<count { kps.append(try makers[i % makers.count].keyPackageEvent(relays: relays)) }
        let newest = kps.map(\.createdAt).max() ?? 0
        // The consumer validates the KeyPackages as the call starts: that is the moment to compare.
        let consumedAt = Int64(Date().timeIntervalSince1970)
        let (group, _) = try consumer.createGroup(name: "bulk", relays: relays, admins: [consumer.pubkey], inviting: kps)
        XCTAssertLessThanOrEqual(consumedAt - newest, 1, "the newest KeyPackage was not consumed within a second", file: file, line: line)
        let welcomes = try consumer.mergePendingCommit(group: group)
        XCTAssertEqual(welcomes.count, count, "one Welcome per KeyPackage", file: file, line: line)
        XCTAssertEqual(try consumer.members(group: group), Set(makers.map(\.pubkey) + [consumer.pubkey]), file: file, line: line)
        // One Welcome per maker is enough to show the commit is usable; each maker joins once.
        for m in makers {
            let wrap = try XCTUnwrap(welcomes.wrap(for: m.pubkey), "no Welcome for \(m.label)", file: file, line: line)
            XCTAssertEqual(try m.join(welcome: wrap), group, file: file, line: line)
        }
        let text = "bulk hello"
        let event = try consumer.send(text, group: group)
        for m in makers { XCTAssertEqual(try m.process(event), .message(sender: consumer.pubkey, content: text), file: file, line: line) }
    }
}
