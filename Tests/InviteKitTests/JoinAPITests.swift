import XCTest
import InviteKitTestSupport
@testable import InviteKit
import InviteKitDemo

/// The calls an app reaches for first: they must work as their names suggest.
final class JoinAPITests: XCTestCase {
    /// Dee asks to join with `url`; Ada processes; Dee catches up. Returns Dee's client.
    private func join(_ w: JoinWorld, _ url: String) async throws -> JoinClient {
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        let out = try await w.deeRequests(url, client: &client)
        XCTAssertNotNil(out, "\(client.state)")
        try await w.adaProcesses()
        client.catchUp(await w.dee.catchUpWraps())
        return client
    }

    private func isJoined(_ state: JoinState) -> Bool { if case .joined = state { return true } else { return false } }

    /// `SignedInvite.create(conversationID:)` with the group's `h`-tag id (the id an app sees on
    /// every event) is accepted, not answered with `conversation_not_found`.
    func testInviteMadeWithTheNostrGroupIDIsAccepted() async throws {
        let w = try await JoinWorld(seed: 40)
        let options = InviteOptions(relays: w.pool.urls, tag: w.hosted.currentTag)
        let url = try SignedInvite.create(conversationID: w.hosted.nostrGroupID, creator: w.ada.key, options: options, using: w.rng).url()
        let client = try await join(w, url)
        XCTAssertTrue(isJoined(client.state), "\(client.state)")
    }

    /// An invite made by the processor with default options (no tag given) carries the group's
    /// current tag and is accepted, not refused as revoked.
    func testProcessorInviteWithDefaultOptionsIsAccepted() async throws {
        let w = try await JoinWorld(seed: 41)
        let invite = try w.processor.invite(for: w.hosted.nostrGroupID)
        XCTAssertEqual(invite.payload.tag, w.hosted.currentTag)
        XCTAssertEqual(invite.payload.relays, w.pool.urls)
        let client = try await join(w, try invite.url())
        XCTAssertTrue(isJoined(client.state), "\(client.state)")
        XCTAssertThrowsError(try w.processor.invite(for: "no-such-group")) {
            XCTAssertEqual(($0 as? InviteKitError)?.code, .conversationNotFound)
        }
    }

    /// The invite names the group's profile (PROTOCOL §3.2, field 101) and the joiner sends a
    /// KeyPackage of it. A KeyPackage of the other profile (here: a single-use invite that wrongly
    /// says MIP for a current-profile group) is refused with `generic_failure` before the invite is
    /// consumed (§8.3 rule 13), so it can still be used.
    func testTheInviteNamesTheProfileAndAKeyPackageOfTheOtherIsRefusedBeforeConsuming() async throws {
        let w = try await JoinWorld(seed: 43)
        XCTAssertFalse(try w.processor.invite(for: w.hosted.nostrGroupID).payload.mipProfile, "a current-profile group's invite")
        let options = InviteOptions(relays: w.pool.urls, expiresAtUnix: w.now + 3600, singleUse: true, tag: w.hosted.currentTag, mipProfile: true)
        let invite = try SignedInvite.create(conversationID: w.hosted.conversationID, creator: w.ada.key, options: options, using: w.rng)
        var client = JoinClient(key: w.dee.key, keyPackages: w.dee.keyPackages, rng: w.rng)
        let requested = try await w.deeRequests(try invite.url(), client: &client)
        let out = try XCTUnwrap(requested)
        XCTAssertEqual(try KeyPackageValidator.validate(out.keyPackageEvent, now: w.now).keyPackage.profile, .mip)
        let decisions = try await w.adaProcesses()
        guard case .rejected(_, let error)? = decisions.first else { return XCTFail("\(decisions)") }
        XCTAssertEqual(error.errorType, .genericFailure)
        XCTAssertEqual(error.reason, "key package of the other Marmot profile")
        XCTAssertFalse(try w.consumed.isConsumed(InviteValidator.consumedKey(creator: w.ada.key.publicKey, invite: invite)))
    }

    /// `start` throws the typed error it also records in the state.
    func testStartThrowsATypedError() throws {
        var client = JoinClient(key: Secp256k1.PrivateKey(), keyPackages: MemoryKeyPackageStore())
        XCTAssertThrowsError(try client.start(invite: "https://example.com/not-an-invite")) {
            guard let e = $0 as? InviteKitError else { return XCTFail("\($0)") }
            XCTAssertEqual(client.state, .joinFailed(tag: "", error: e))
        }
    }

    /// The joiner gets the inviter's join error as sent (type, tag, reason, timestamp) besides
    /// the mapped error in its state.
    func testJoinerSeesTheRawJoinError() async throws {
        let w = try await JoinWorld(seed: 42)
        let url = try w.invite()
        w.processor.removeGroup(w.hosted.conversationID)
        let client = try await join(w, url)
        let raw = try XCTUnwrap(client.joinError)
        XCTAssertEqual(raw.errorType, .conversationNotFound)
        XCTAssertEqual(raw.inviteTag, w.hosted.currentTag)
        XCTAssertEqual(raw.timestamp.timeIntervalSince1970, Double(w.now), accuracy: 5)
        XCTAssertEqual(client.state, .joinFailed(tag: raw.inviteTag, error: InviteKitError(.conversationNotFound, underlyingCode: "conversation_not_found")))
    }

    /// An admin adds a member as an admin; the new admin can then commit an add itself.
    func testAdminAddsAnAdmin() async throws {
        let w = try await JoinWorld(seed: 43)
        try await w.add(w.dee, asAdmin: true)
        let data = try XCTUnwrap(w.processor.group(w.hosted.conversationID)?.group.groupData)
        XCTAssertTrue(data.isAdmin(w.dee.key.publicKey.rawRepresentation))
        XCTAssertFalse(data.isAdmin(w.members[0].key.publicKey.rawRepresentation))
        let dee = try XCTUnwrap(w.dee.group)
        XCTAssertTrue(dee.isAdmin)
        let eve = GroupParticipant(name: "Eve", key: Secp256k1.PrivateKey(using: w.rng), pool: w.pool, rng: w.rng)
        let eveKP = try KeyPackageValidator.validate(try await eve.publishKeyPackage())
        XCTAssertNoThrow(try dee.commit(adding: [eveKP], rng: w.rng))
    }

    /// An admin promotes an existing member; every member applies it, and the new admin can then
    /// commit an add. Promoting a non-member or an admin again is refused.
    func testAdminPromotesAMember() async throws {
        let w = try await JoinWorld(seed: 45)
        let ben = w.members[0]
        XCTAssertFalse(try XCTUnwrap(ben.group).isAdmin)
        let change = try w.processor.promote(ben.key.publicKey, in: w.hosted.conversationID)
        try w.processor.confirmPublished(change: change, acknowledgedBy: try await w.ada.publishRequired(change.event))
        for m in w.members { _ = try await m.syncGroup() }
        XCTAssertTrue(try XCTUnwrap(ben.group).isAdmin)
        XCTAssertTrue(try XCTUnwrap(w.processor.group(w.hosted.conversationID)?.group.groupData).isAdmin(ben.key.publicKey.rawRepresentation))
        XCTAssertEqual(Set(w.members.map { $0.group?.epoch }), [w.processor.group(w.hosted.conversationID)?.group.epoch])
        let eve = GroupParticipant(name: "Eve", key: Secp256k1.PrivateKey(using: w.rng), pool: w.pool, rng: w.rng)
        let eveKP = try KeyPackageValidator.validate(try await eve.publishKeyPackage())
        XCTAssertNoThrow(try XCTUnwrap(ben.group).commit(adding: [eveKP], rng: w.rng))
        XCTAssertThrowsError(try w.processor.promote(ben.key.publicKey, in: w.hosted.conversationID)) {
            XCTAssertEqual(($0 as? InviteKitError)?.underlyingCode, "already_admin")
        }
        XCTAssertThrowsError(try w.processor.promote(eve.key.publicKey, in: w.hosted.conversationID)) {
            XCTAssertEqual(($0 as? InviteKitError)?.underlyingCode, "not_a_member")
        }
    }

    /// Only an admin of the group can add: a processor run by a plain member refuses.
    func testNonAdminCannotAdd() async throws {
        let w = try await JoinWorld(seed: 44)
        let ben = w.members[0]
        let benProcessor = InMemoryInviter(inviter: ben.key, consumedTags: InMemoryConsumedTagStore(), rng: w.rng)
        benProcessor.host(HostedGroup(group: try XCTUnwrap(ben.group), currentTag: "x", relays: w.pool.urls))
        let kp = try await w.dee.publishKeyPackage()
        XCTAssertThrowsError(try benProcessor.add(kp, to: w.hosted.conversationID)) {
            XCTAssertEqual(($0 as? InviteKitError)?.code, .notPermitted)
        }
    }

    /// A group's creator gets its leaf's Lifetime from the one KeyPackage rule (PROTOCOL §4.4):
    /// `not_before` an hour back, as every KeyPackage InviteKit makes, not the second of creation
    /// (which OpenMLS refuses in that second and on any peer whose clock is behind).
    func testCreatorLeafHasTheKeyPackageLifetime() throws {
        let now: Int64 = 1_800_000_000
        let key = Secp256k1.PrivateKey(using: SeededRandom(seed: 3))
        let hosted = try HostedGroup.create(creator: key, name: nil, relays: ["wss://relay.example"], now: now, rng: SeededRandom(seed: 4))
        let lifetime = try XCTUnwrap(hosted.group.state.tree.leaf(0)?.lifetime)
        // A current-profile group: the creator's leaf lives as a current KeyPackage does (PROTOCOL §5.12.3).
        XCTAssertEqual(lifetime, try KeyPackageEvent.lifetime(createdAt: now, seconds: KeyPackageEvent.currentDefaultLifetime))
        XCTAssertEqual(lifetime.notBefore, UInt64(now) - KeyPackageEvent.notBeforeMargin)
        XCTAssertEqual(lifetime.notAfter, UInt64(now) + KeyPackageEvent.currentDefaultLifetime)
    }
}
