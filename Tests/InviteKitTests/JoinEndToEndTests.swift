import XCTest
import InviteKitTestSupport
@testable import InviteKit
import InviteKitDemo

/// The join protocol end to end over the in-memory relay: inviter, invitee and 3 members.
final class JoinEndToEndTests: XCTestCase {
    func testDemoStoryRunsEveryStep() async throws {
        var steps = [StoryStep]()
        let ok = try await DemoStory.run(pool: RelayPool([InMemoryRelay(url: "wss://in-memory.invitekit.test")]), rng: SeededRandom(seed: 1), showQR: false) { steps.append($0) }
        XCTAssertTrue(ok, steps.filter { !$0.ok }.map(\.title).joined(separator: ", "))
        XCTAssertEqual(steps.map(\.step), [1, 2, 3, 4, 5, 6, 7])
    }

    func testSuccessPathEveryoneConvergesAndReads() async throws {
        let w = try await JoinWorld(seed: 10)
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        let out = try await w.deeRequests(try w.invite(), client: &client)
        XCTAssertNotNil(out)
        XCTAssertEqual(client.state, .joining(tag: w.hosted.currentTag))
        let decisions = try await w.adaProcesses()
        XCTAssertEqual(decisions.count, 1)
        client.catchUp(await w.dee.catchUpWraps())
        guard case .joined(let g) = client.state else { return XCTFail("\(client.state)") }
        XCTAssertEqual(g.nostrGroupID, w.hosted.nostrGroupID)
        w.dee.group = client.group
        for m in w.members { try await m.syncGroup() }
        let fps = Set(([w.ada, w.dee] + w.members).map { $0.epochFingerprint! })
        XCTAssertEqual(fps.count, 1, "one epoch secret for all 5")
        let msg = try await w.dee.send("hello")
        for m in w.members {
            let got = try await m.syncGroup().compactMap { if case .message(let e, _) = $0 { return e } else { return nil } }
            XCTAssertEqual(got.map(\.content), ["hello"], m.name)
            XCTAssertEqual(got.first?.pubkey, w.dee.pubkey)
        }
        XCTAssertFalse(msg.pubkey == w.dee.pubkey, "kind 445 uses a fresh ephemeral pubkey")
    }

    func testWelcomeIsReleasedOnlyAfterTheCommitIsStored() async throws {
        let w = try await JoinWorld(seed: 11)
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(try w.invite(), client: &client)
        guard case .accepted(let pending) = w.processor.process(await w.ada.catchUpWraps().succeeded[0]) else { return XCTFail() }
        XCTAssertThrowsError(try w.processor.confirmPublished(pending, acknowledgedBy: [])) {
            XCTAssertEqual(($0 as? InviteKitError)?.underlyingCode, MLSError.Code.commitNotPublished.rawValue)
        }
        await w.relay.setPolicy { _ in .reject("blocked: test") }
        let result = await w.pool.publish(pending.event)
        XCTAssertTrue(result.succeeded.isEmpty)
        XCTAssertEqual(result.failed.count, 1, "the rejection is reported, not dropped")
        XCTAssertEqual((result.failed.first?.error as? RelayError)?.code, .rejected)
        let sentToDee = await w.wrapsToDee()
        XCTAssertEqual(sentToDee.count, 0, "no Welcome while the Commit is not stored")
    }

    func testExpiredInviteGetsNoReply() async throws {
        let w = try await JoinWorld(seed: 12)
        let url = try w.invite(expiresIn: 60)
        // Dee's clock is wrong, so her client sends anyway; the inviter must stay silent.
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(url, client: &client, at: w.now)
        w.now += 120
        let late = InMemoryInviter(inviter: w.ada.key, consumedTags: w.consumed, clock: { [now = w.now] in now }, rng: w.rng)
        late.host(w.hosted)
        let decisions = await w.ada.catchUpWraps().succeeded.map { late.process($0) }
        guard case .dropped(let e)? = decisions.first else { return XCTFail("\(decisions)") }
        XCTAssertEqual(e.code, .inviteExpired)
        let sentToDee = await w.wrapsToDee()
        XCTAssertEqual(sentToDee.count, 0)
        // And a joiner whose clock is right refuses locally, sending nothing.
        var honest = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        XCTAssertThrowsError(try honest.start(invite: url, now: w.now)) {
            XCTAssertEqual($0 as? InviteKitError, InviteKitError(.inviteExpired, underlyingCode: "invite_expired"))
        }
        XCTAssertEqual(honest.state, .joinFailed(tag: "", error: InviteKitError(.inviteExpired, underlyingCode: "invite_expired")))
    }

    func testForgedInviteMakesTheInviterSendNothing() async throws {
        let w = try await JoinWorld(seed: 13)
        let mallory = Secp256k1.PrivateKey(using: w.rng)
        let genuine = try SignedInvite(link: try w.invite())
        // Ada's payload re-signed by Mallory, and Ada's signature with one bit flipped.
        var flipped = genuine.signature; flipped[10] ^= 0x01
        let forgeries = [try SignedInvite.sign(genuine.payload, with: mallory).url(),
                         try SignedInvite(payloadBytes: genuine.payloadBytes, signature: flipped).url()]
        for url in forgeries {
            var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
            XCTAssertThrowsError(try client.start(invite: url, now: w.now), "an honest client refuses a forgery locally")
            // An attacker sends the request anyway.
            let kp = try await w.dee.publishKeyPackage()
            let request = WhistleJoinRequest(groupId: "", pubkey: w.dee.pubkey, keyPackage: kp, invite: url)
            try await w.dee.publishRequired(try GiftWrap.wrap(template: request.rumorTemplate(), from: w.dee.key, to: w.ada.key.publicKey, using: w.rng))
        }
        let decisions = try await w.adaProcesses()
        XCTAssertEqual(decisions.count, 2)
        for d in decisions {
            guard case .dropped(let e) = d else { return XCTFail("\(d)") }
            XCTAssertEqual(e.code, .inviteInvalid)
        }
        let sentToDee = await w.wrapsToDee()
        XCTAssertEqual(sentToDee.count, 0, "nothing is ever sent for a forged invite")
    }

    func testConsumedSingleUseInviteGetsOneReply() async throws {
        let w = try await JoinWorld(seed: 14)
        let url = try w.invite(singleUse: true)
        var first = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(url, client: &first)
        try await w.adaProcesses()
        let eve = GroupParticipant(name: "Eve", key: Secp256k1.PrivateKey(using: w.rng), pool: w.pool, rng: w.rng)
        var second = JoinClient(key: eve.key, keyPackages: eve.keyPackages, rng: w.rng)
        let out = try second.start(invite: url)
        try await eve.publishRequired(out.keyPackageEvent)
        try await eve.publishRequired(out.joinRequest)
        try await eve.publishRequired(out.joinRequest)  // a replayed request gets no second reply
        let decisions = try await w.adaProcesses()
        let replies = decisions.compactMap { if case .rejected(_, let e) = $0 { return e } else { return nil } }
        XCTAssertEqual(replies.map(\.errorType), [.singleUseConsumed])
        second.catchUp(await eve.catchUpWraps())
        guard case .joinFailed(_, let error) = second.state else { return XCTFail("\(second.state)") }
        XCTAssertEqual(error.message, "This invite was already used")
    }

    func testRevokedTagGetsConversationExpired() async throws {
        let w = try await JoinWorld(seed: 15)
        let url = try w.invite()
        XCTAssertNotNil(w.processor.rotateTag(w.hosted.conversationID))
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(url, client: &client)
        let decisions = try await w.adaProcesses()
        guard case .rejected(_, let e) = decisions.first else { return XCTFail("\(decisions)") }
        XCTAssertEqual(e.errorType, .conversationExpired)
        client.catchUp(await w.dee.catchUpWraps())
        XCTAssertEqual(client.state, .joinFailed(tag: e.inviteTag, error: InviteKitError(.conversationExpired, underlyingCode: "conversation_expired")))
        XCTAssertEqual(client.joinError, e)
        XCTAssertEqual(client.state.description, "join failed (invite \(e.inviteTag)): This invite is no longer valid")
    }

    func testGroupGoneGetsConversationNotFound() async throws {
        let w = try await JoinWorld(seed: 16)
        let url = try w.invite()
        w.processor.removeGroup(w.hosted.conversationID)
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(url, client: &client)
        let decisions = try await w.adaProcesses()
        guard case .rejected(_, let e) = decisions.first else { return XCTFail("\(decisions)") }
        XCTAssertEqual(e.errorType, .conversationNotFound)
        client.catchUp(await w.dee.catchUpWraps())
        guard case .joinFailed(_, let error) = client.state else { return XCTFail() }
        XCTAssertEqual(error.message, "This conversation no longer exists")
    }

    func testOfflineJoinerCatchesUpToTheSameState() async throws {
        let w = try await JoinWorld(seed: 17)
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(try w.invite(), client: &client)
        // Dee goes offline; meanwhile Ada accepts, and a member sends messages.
        try await w.adaProcesses()
        for m in w.members { try await m.syncGroup() }
        _ = try await w.members[0].send("while Dee was away")
        // Back online: one batch of wraps (plus a hostile one) and the group's backlog.
        var junk = try GiftWrap.wrap(template: EventTemplate(kind: 14, content: "x"), from: w.ada.key, to: w.dee.key.publicKey, using: w.rng)
        junk.content = String(junk.content.reversed())
        try await w.ada.publishRequired(try EventTemplate(kind: 1, content: "not a wrap").signed(by: w.ada.key))
        var batch = await w.dee.catchUpWraps()
        batch.failed.append(.init(input: junk, error: NostrError(.invalidSignature, "test")))
        client.catchUp(batch)
        guard case .joined = client.state else { return XCTFail("\(client.state)") }
        w.dee.group = client.group
        let outcomes = try await w.dee.syncGroup()
        let texts = outcomes.compactMap { if case .message(let e, _) = $0 { return e.content } else { return nil } }
        XCTAssertEqual(texts, ["while Dee was away"])
    }

    func testErrorAfterCancelIsIgnored() async throws {
        let w = try await JoinWorld(seed: 18)
        let url = try w.invite()
        w.processor.removeGroup(w.hosted.conversationID)
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(url, client: &client)
        client.cancel()
        try await w.adaProcesses()
        client.catchUp(await w.dee.catchUpWraps())
        XCTAssertEqual(client.state, .cancelled)
        XCTAssertEqual(client.refused, [.afterCancel])
    }

    func testJoinerCannotReadMessagesFromBeforeItJoined() async throws {
        let w = try await JoinWorld(seed: 19)
        let before = try await w.members[1].send("secret before Dee")
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(try w.invite(), client: &client)
        try await w.adaProcesses()
        client.catchUp(await w.dee.catchUpWraps())
        var group = try XCTUnwrap(client.group)
        let outcomes = group.receive(event: before)
        XCTAssertFalse(outcomes.contains { if case .message = $0 { return true } else { return false } }, "\(outcomes)")
    }

    func testFailedWelcomeKeepsTheKeyPackage() async throws {
        let w = try await JoinWorld(seed: 20)
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        _ = try await w.deeRequests(try w.invite(), client: &client)
        let refsBefore = try w.dee.keyPackages.references()
        XCTAssertEqual(refsBefore.count, 1)
        // A Welcome that cannot be processed (garbage content) from the inviter.
        let bogus = EventTemplate(kind: 444, content: Base64.encode([UInt8](repeating: 7, count: 40)), tags: [["e", String(repeating: "0", count: 64)]])
        let wrap = try GiftWrap.wrap(template: bogus, from: w.ada.key, to: w.dee.key.publicKey, using: w.rng)
        client.handle(try GiftWrap.unwrap(wrap, recipient: w.dee.key))
        XCTAssertNotNil(client.lastWelcomeError)
        XCTAssertEqual(try w.dee.keyPackages.references(), refsBefore, "a failed Welcome keeps its KeyPackage")
        // The real Welcome still works afterwards.
        try await w.adaProcesses()
        client.catchUp(await w.dee.catchUpWraps())
        guard case .joined = client.state else { return XCTFail("\(client.state)") }
    }
}

extension JoinEndToEndTests {
    /// `invitekit demo --json` prints these: every step has unique id keys, so the transcript
    /// parses with a strict JSON reader.
    func testDemoTranscriptIdsAreUniquePerStep() async throws {
        var steps = [StoryStep]()
        _ = try await DemoStory.run(pool: RelayPool([InMemoryRelay(url: "wss://in-memory.invitekit.test")]), rng: SeededRandom(seed: 2), showQR: false) { steps.append($0) }
        for s in steps {
            XCTAssertEqual(Set(s.ids.map(\.0)).count, s.ids.count, "step \(s.step)")
            XCTAssertFalse(s.actor.isEmpty)
        }
    }
}

extension JoinEndToEndTests {
    /// A Whistle invite code carries no signature: the request waits for an admin's approval,
    /// then follows the same Commit → confirmed → Welcome path.
    func testWhistleCodeRequestNeedsApprovalThenJoins() async throws {
        let w = try await JoinWorld(seed: 21)
        let code = InviteCode(relay: w.pool.urls[0], inviter: w.ada.key.publicKey, groupId: w.hosted.nostrGroupID)
        let kp = try await w.dee.publishKeyPackage()
        let request = WhistleJoinRequest(groupId: code.groupId, pubkey: w.dee.pubkey, keyPackage: kp, name: "Dee", invite: code.url)
        try await w.dee.publishRequired(try GiftWrap.wrap(template: request.rumorTemplate(), from: w.dee.key, to: w.ada.key.publicKey, using: w.rng))
        let gifts = await w.ada.catchUpWraps().succeeded
        guard case .needsApproval(let approval) = w.processor.process(gifts[0]) else { return XCTFail("expected needsApproval") }
        XCTAssertEqual(try ApprovalURL(url: approval.approvalURL).pubkey, w.dee.key.publicKey)
        let pending = try w.processor.approve(approval)
        let acks = try await w.ada.publishRequired(pending.event)
        let welcomes = try w.processor.confirmPublished(pending, acknowledgedBy: acks)
        XCTAssertEqual(welcomes.count, 1)
        w.dee.group = try MarmotMLSGroup.join(giftWrap: welcomes[0], recipient: w.dee.key, store: w.dee.keyPackages)
        w.ada.group = w.processor.group(w.hosted.conversationID)?.group
        XCTAssertEqual(w.dee.epochFingerprint, w.ada.epochFingerprint)
        // A code naming another inviter is dropped without a reply.
        let foreign = InviteCode(relay: w.pool.urls[0], inviter: Secp256k1.PrivateKey(using: w.rng).publicKey, groupId: w.hosted.nostrGroupID)
        let other = WhistleJoinRequest(groupId: foreign.groupId, pubkey: w.dee.pubkey, keyPackage: kp, invite: foreign.url)
        let gift = try GiftWrap.unwrap(try GiftWrap.wrap(template: other.rumorTemplate(), from: w.dee.key, to: w.ada.key.publicKey, using: w.rng), recipient: w.ada.key)
        guard case .dropped = w.processor.process(gift) else { return XCTFail("foreign code must be dropped") }
    }
}
