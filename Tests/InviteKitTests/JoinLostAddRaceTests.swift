import XCTest
import InviteKitTestSupport
@testable import InviteKit
import InviteKitDemo

/// The lost-add race: two admins commit in the same epoch, one of them adding a joiner by invite.
/// The other commit wins (convergence v1: both privileged, the lower committer key wins,
/// PROTOCOL §5.13); the inviter's processor sees the rollback name the lost add, re-adds the
/// joiner in the next epoch, and the joiner replaces its dead state with the newer Welcome and
/// ends up a working member.
final class JoinLostAddRaceTests: XCTestCase {
    func testLostAddIsReaddedAndTheJoinerEndsUpAWorkingMember() async throws {
        let w = try await JoinWorld(seed: 70)
        // Bo's key sorts before Ada's, so his commit wins a tie on the committer rule.
        var boKey = Secp256k1.PrivateKey(using: w.rng)
        while !boKey.publicKey.rawRepresentation.lexicographicallyPrecedes(w.ada.key.publicKey.rawRepresentation) {
            boKey = Secp256k1.PrivateKey(using: w.rng)
        }
        let bo = GroupParticipant(name: "Bo", key: boKey, pool: w.pool, rng: w.rng)
        try await w.add(bo, asAdmin: true)
        for m in w.members { try await m.syncGroup() }
        let joy = w.dee
        let startEpoch = try XCTUnwrap(w.processor.group(w.hosted.conversationID)?.group.epoch)

        // Joy asks to join; Ada's processor accepts and builds the add commit.
        var client = JoinClient(key: joy.key, keyPackages: joy.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(try w.invite(), client: &client)
        let gifts = await w.ada.catchUpWraps().succeeded
        var pendings: [PendingJoin] = []
        for g in gifts { if case .accepted(let p) = w.processor.process(g) { pendings.append(p) } }
        let addJoy = try XCTUnwrap(pendings.first)

        // Bo commits in the same epoch (a rename: privileged, like Ada's add): his commit wins the
        // race on the committer rule, whatever its created_at says.
        var boGroup = try XCTUnwrap(bo.group)
        var renamed = boGroup.groupData
        renamed.name += " (Bo)"
        let boCommit = try boGroup.commit(groupData: renamed, now: addJoy.event.createdAt + 30, rng: w.rng)
        let boAcks = try await bo.publishRequired(boCommit.event)
        _ = try boGroup.confirmPublished(boCommit, acknowledgedBy: boAcks)
        bo.group = boGroup

        // Ada publishes hers too and, on its OK, releases Joy's first Welcome: a dead branch.
        let acks = try await w.ada.publishRequired(addJoy.event)
        for wrap in try w.processor.confirmPublished(addJoy, acknowledgedBy: acks) { try await w.ada.publishRequired(wrap) }
        client.catchUp(await joy.catchUpWraps())
        guard case .joined = client.state else { return XCTFail("\(client.state)") }
        let deadEpoch = try XCTUnwrap(client.group?.epoch)
        XCTAssertEqual(deadEpoch, startEpoch + 1)

        // Ada's processor sees Bo's better commit: rollback naming Joy, and one re-add commit.
        let receipt = try w.processor.receive(boCommit.event, conversationID: w.hosted.conversationID)
        let lost = receipt.outcomes.flatMap { o -> [MarmotLostAdd] in
            if case let .rolledBack(_, _, lostAdds) = o { return lostAdds } else { return [] }
        }
        XCTAssertEqual(lost.map(\.pubkey), [joy.pubkey])
        let readd = try XCTUnwrap(receipt.readds.first)
        XCTAssertEqual(receipt.readds.count, 1)
        XCTAssertEqual(readd.joiner, joy.key.publicKey)
        let readdAcks = try await w.ada.publishRequired(readd.event)
        let welcomes = try w.processor.confirmPublished(readd, acknowledgedBy: readdAcks)
        XCTAssertEqual(welcomes.count, 1)
        for wrap in welcomes { try await w.ada.publishRequired(wrap) }
        w.ada.group = w.processor.group(w.hosted.conversationID)?.group
        XCTAssertEqual(w.ada.group?.epoch, startEpoch + 2)

        // Joy replaces the dead state with the newer Welcome.
        client.catchUp(await joy.catchUpWraps())
        XCTAssertEqual(client.group?.epoch, startEpoch + 2)
        joy.group = client.group

        // Everyone converges on the winning branch with Joy in it, and she reads and is read.
        try await bo.syncGroup()
        for m in w.members { try await m.syncGroup() }
        let everyone = [w.ada, bo, joy] + w.members
        XCTAssertEqual(Set(everyone.compactMap(\.epochFingerprint)).count, 1, "one epoch secret for all")
        XCTAssertEqual(Set(everyone.compactMap { $0.group?.epoch }), [startEpoch + 2])
        _ = try await joy.send("made it")
        for m in [bo] + w.members {
            let got = try await m.syncGroup().compactMap { if case .message(let e, _) = $0 { return e.content } else { return nil } }
            XCTAssertEqual(got, ["made it"], m.name)
        }
        _ = try await w.members[0].send("welcome, Joy")
        let joyRead = try await joy.syncGroup().compactMap { if case .message(let e, _) = $0 { return e.content } else { return nil } }
        XCTAssertEqual(joyRead, ["welcome, Joy"])
    }
}
