import XCTest
import InviteKitCrypto
@testable import InviteKitInvites
import InviteKitTestSupport

final class ValidationTests: XCTestCase {
    let now: Int64 = 1_800_000_000

    func invite(_ o: InviteOptions) throws -> SignedInvite {
        try SignedInvite.create(conversationID: "group-1", creator: TestKeys.creator, options: o, using: SeededRandom(seed: 3))
    }

    func testAllChecksPass() throws {
        let inv = try invite(InviteOptions(expiresAtUnix: now + 10, conversationExpiresAtUnix: now + 100, singleUse: true, tag: "AAAAAAAAAA"))
        let store = InMemoryConsumedTagStore()
        let r = InviteValidator.validate(inv, context: .init(now: now, expectedCreator: TestKeys.creator.publicKey,
                                                             currentTag: "AAAAAAAAAA", store: store))
        XCTAssertTrue(r.isValid)
        XCTAssertEqual(r.signature, .passed)
        XCTAssertEqual(r.inviteExpiry, .passed)
        XCTAssertEqual(r.conversationExpiry, .passed)
        XCTAssertEqual(r.revocation, .passed)
        XCTAssertEqual(r.singleUse, .passed)
        XCTAssertEqual(r.verdicts.map(\.check), [.signature, .inviteExpiry, .conversation, .conversationExpiry, .revocation, .singleUse])
        XCTAssertEqual(r.verdicts.map(\.outcome), [.passed, .passed, .skipped, .passed, .passed, .passed])
        XCTAssertTrue(try store.consume(InviteValidator.consumedKey(creator: TestKeys.creator.publicKey, invite: inv)))
        let again = InviteValidator.validate(inv, context: .init(now: now, store: store))
        XCTAssertEqual(again.error?.code, .inviteAlreadyUsed)
        XCTAssertEqual(again.error?.message, "This invite was already used")
        XCTAssertFalse(again.error!.isRetryable)
    }

    /// Single use is per invite (PROTOCOL §3.7): two single-use invites with one tag are used up
    /// independently; a consumption recorded by tag before schema 4 still covers every invite
    /// of that tag.
    func testSingleUseIsPerInviteAndLegacyTagRowsStillCount() throws {
        let first = try invite(InviteOptions(singleUse: true, tag: "AAAAAAAAAA"))
        let second = try SignedInvite.create(conversationID: "group-1", creator: TestKeys.creator,
                                             options: InviteOptions(singleUse: true, tag: "AAAAAAAAAA"), using: SeededRandom(seed: 4))
        XCTAssertNotEqual(first.payloadBytes, second.payloadBytes)
        let store = InMemoryConsumedTagStore()
        XCTAssertTrue(try store.consume(InviteValidator.consumedKey(creator: TestKeys.creator.publicKey, invite: first)))
        XCTAssertEqual(InviteValidator.validate(first, context: .init(now: now, store: store)).error?.code, .inviteAlreadyUsed)
        XCTAssertTrue(InviteValidator.validate(second, context: .init(now: now, store: store)).isValid)
        XCTAssertTrue(try store.consume(InviteValidator.legacyConsumedKey(creator: TestKeys.creator.publicKey, tag: "AAAAAAAAAA")))
        XCTAssertEqual(InviteValidator.validate(second, context: .init(now: now, store: store)).error?.code, .inviteAlreadyUsed)
    }

    func testEachFailure() throws {
        let expired = try invite(InviteOptions(expiresAtUnix: now))
        XCTAssertEqual(InviteValidator.validate(expired, context: .init(now: now)).error?.code, .inviteExpired)
        XCTAssertEqual(InviteValidator.validate(expired, context: .init(now: now)).error?.message, "This invite has expired")
        XCTAssertTrue(InviteValidator.validate(expired, context: .init(now: now - 1)).isValid)

        let convExpired = try invite(InviteOptions(conversationExpiresAtUnix: now - 1))
        XCTAssertEqual(InviteValidator.validate(convExpired, context: .init(now: now)).error?.code, .conversationExpired)

        let revoked = try invite(InviteOptions(tag: "OldTag0000"))
        let rr = InviteValidator.validate(revoked, context: .init(now: now, currentTag: "NewTag0000"))
        XCTAssertEqual(rr.error?.code, .inviteRevoked)
        XCTAssertEqual(rr.revocation.error?.code, .inviteRevoked)

        let ok = try invite(InviteOptions())
        XCTAssertEqual(InviteValidator.validate(ok, context: .init(now: now, expectedCreator: TestKeys.other.publicKey)).error?.code, .creatorMismatch)
    }

    func testForgedInviteRevealsNothingElseAndDoesNotConsume() throws {
        let inv = try invite(InviteOptions(expiresAtUnix: now - 100, singleUse: true))
        var sig = inv.signature
        sig[10] ^= 1
        let forged = try SignedInvite(payloadBytes: inv.payloadBytes, signature: sig)
        let store = InMemoryConsumedTagStore()
        let r = InviteValidator.validate(forged, context: .init(now: now, store: store))
        XCTAssertEqual(r.error?.code, .invalidSignature)
        XCTAssertEqual(r.error?.message, "This invite is invalid")
        XCTAssertEqual(r.inviteExpiry, .skipped)
        XCTAssertEqual(r.singleUse, .skipped)
        XCTAssertFalse(try store.isConsumed(InviteValidator.consumedKey(creator: TestKeys.creator.publicKey, invite: inv)))
    }

    /// Validation only reads the store: passing or failing, it never consumes (the join flow
    /// consumes, once, after every check passed).
    func testValidationNeverConsumes() throws {
        let inv = try invite(InviteOptions(singleUse: true, tag: "OldTag0000"))
        let store = InMemoryConsumedTagStore()
        let key = InviteValidator.consumedKey(creator: TestKeys.creator.publicKey, invite: inv)
        let r = InviteValidator.validate(inv, context: .init(now: now, currentTag: "NewTag0000", store: store))
        XCTAssertEqual(r.error?.code, .inviteRevoked)
        for _ in 0..<2 { XCTAssertTrue(InviteValidator.validate(inv, context: .init(now: now, store: store)).isValid) }
        XCTAssertFalse(try store.isConsumed(key))
    }

    /// A failed conversation lookup comes before conversation expiry, as the join flow replies.
    func testConversationIsCheckedBeforeConversationExpiry() throws {
        let inv = try invite(InviteOptions(conversationExpiresAtUnix: now - 1))
        let gone = InviteCreatorState(key: TestKeys.creator) { _ in nil }
        let r = InviteValidator.validate(inv, context: .init(now: now, creator: gone))
        XCTAssertEqual(r.error?.code, .conversationNotFound)
        XCTAssertEqual(r.conversationExpiry.error?.code, .conversationExpired)
    }

    func testUnavailableStoreIsRetryable() throws {
        let inv = try invite(InviteOptions(singleUse: true))
        let store = FileConsumedTagStore(path: "/nonexistent-dir/\(UUID().uuidString)/tags")
        let r = InviteValidator.validate(inv, context: .init(now: now, store: store))
        XCTAssertEqual(r.error?.code, .storeUnavailable)
        XCTAssertTrue(r.error!.isRetryable)
    }

    func testEveryCodeHasAMessageAndOnlyStoreIsRetryable() {
        for c in InviteError.Code.allCases {
            XCTAssertFalse(c.message.isEmpty)
            XCTAssertEqual(c.isRetryable, c == .storeUnavailable)
            // Messages never carry detail: the same code always reads the same.
            XCTAssertEqual(InviteError(c, "secret detail").message, InviteError(c).message)
        }
    }

    func testFileStoreSurvivesRestartAndToleratesTornLine() throws {
        let tmp = TemporaryDirectory(prefix: "ik-tags")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.url
        let path = dir.appendingPathComponent("consumed").path
        XCTAssertTrue(try FileConsumedTagStore(path: path).consume("a:1"))
        XCTAssertFalse(try FileConsumedTagStore(path: path).consume("a:1"))
        // A crash mid-append leaves a partial line.
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        h.seekToEndOfFile(); h.write(Data("abc123".utf8)); try h.close()
        let store = FileConsumedTagStore(path: path)
        XCTAssertTrue(try store.isConsumed("a:1"))
        XCTAssertTrue(try store.consume("b:2"))
        XCTAssertTrue(try FileConsumedTagStore(path: path).isConsumed("b:2"))
        let contents = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(contents.contains("a:1"))
        // Long-lived instances catch up on what other instances (processes) appended.
        let a = FileConsumedTagStore(path: path), b = FileConsumedTagStore(path: path)
        XCTAssertTrue(try a.consume("c:3"))
        XCTAssertTrue(try b.consume("d:4"))
        XCTAssertTrue(try a.isConsumed("d:4"))
        XCTAssertFalse(try a.consume("d:4"))
        XCTAssertFalse(try b.consume("c:3"))
        // A file replaced by a shorter one is read again from the start.
        try Data((FileConsumedTagStore.lineFor("e:5") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertFalse(try a.isConsumed("c:3"))
        XCTAssertTrue(try a.isConsumed("e:5"))
    }

    func testSharedFileStoreInstanceUnderThreads() throws {
        let tmp = TemporaryDirectory(prefix: "ik-tags")
        defer { withExtendedLifetime(tmp) {} }
        let dir = tmp.url
        let store = FileConsumedTagStore(path: dir.appendingPathComponent("consumed").path)
        XCTAssertEqual(raceThreads(count: 16) { (try? store.consume("shared:tag")) == true }, 1)
    }
}

final class CreatorSideValidationTests: XCTestCase {
    let now: Int64 = 1_800_000_000

    func testCreatorOpensTokenAndUsesTheConversationsCurrentTag() throws {
        let inv = try SignedInvite.create(conversationID: "group-A", creator: TestKeys.creator,
                                          options: InviteOptions(tag: "TagA000000"), using: SeededRandom(seed: 8))
        let tags = ["group-A": "TagA000000", "group-B": "TagB000000"]
        let state = InviteCreatorState(key: TestKeys.creator) { tags[$0] }
        let ok = InviteValidator.validate(inv, context: .init(now: now, creator: state))
        XCTAssertTrue(ok.isValid)
        XCTAssertEqual(ok.conversationID, "group-A")
        XCTAssertEqual(ok.conversation, .passed)
        XCTAssertEqual(ok.revocation, .passed)

        let rotated = InviteCreatorState(key: TestKeys.creator) { _ in "Rotated000" }
        XCTAssertEqual(InviteValidator.validate(inv, context: .init(now: now, creator: rotated)).error?.code, .inviteRevoked)

        let gone = InviteCreatorState(key: TestKeys.creator) { _ in nil }
        let r = InviteValidator.validate(inv, context: .init(now: now, creator: gone))
        XCTAssertEqual(r.error?.code, .conversationNotFound)
    }

    func testAnotherCreatorsInviteIsAMismatchWithoutReply() throws {
        let inv = try SignedInvite.create(conversationID: "group-A", creator: TestKeys.other, using: SeededRandom(seed: 8))
        let state = InviteCreatorState(key: TestKeys.creator) { _ in "x" }
        let r = InviteValidator.validate(inv, context: .init(now: now, creator: state))
        XCTAssertEqual(r.error?.code, .creatorMismatch)
        XCTAssertEqual(r.conversation, .skipped)
    }
}
