import InviteKitCrypto
import InviteKitMLS
import InviteKitTestSupport
import XCTest

/// Component 0x800e state and its update rules (`group-invite-links-v1.md` "Conformance cases";
/// PROTOCOL §5.14.1–§5.14.2).
final class InviteLinkStateTests: XCTestCase {
    typealias F = InviteLinkFixture

    func assertRefused(_ bytes: [UInt8], _ code: MLSError.Code = .invalidInviteLinks, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try InviteLinksV1(decoding: bytes), file: file, line: line) {
            XCTAssertEqual(($0 as? MLSError)?.code, code, "\($0)", file: file, line: line)
        }
    }

    func testEmptyAndOneEntryAccepted() throws {
        XCTAssertEqual(try InviteLinksV1(decoding: [0]).links.count, 0)
        XCTAssertEqual(InviteLinksV1.empty.encoded, [0])
        let one = try InviteLinksV1(decoding: F.bytes("component_hex"))
        XCTAssertEqual(one.links.map(\.encoded), [F.bytes("entry_hex")])
        XCTAssertEqual(one.encoded, F.bytes("component_hex"))
        XCTAssertEqual(F.bytes("entry_hex").count, InviteLinkV1.byteCount)
    }

    func testEightAcceptedNineRefused() throws {
        let eight = (1...8).map { F.rawEntry(id: UInt8($0), inbox: F.xOnly(UInt8($0))) }
        XCTAssertEqual(try InviteLinksV1(decoding: F.component(eight)).links.count, 8)
        let nine = (1...9).map { F.rawEntry(id: UInt8($0), inbox: F.xOnly(UInt8($0))) }
        assertRefused(F.component(nine))
        XCTAssertThrowsError(try InviteLinksV1(links: (1...9).map { try F.entry(id: UInt8($0), inbox: UInt8($0)) }))
    }

    func testDuplicateAndUnsortedIdsAndDuplicateInboxesRefused() throws {
        assertRefused(F.component([F.rawEntry(id: 1, inbox: F.xOnly(1)), F.rawEntry(id: 1, inbox: F.xOnly(2))]))
        assertRefused(F.component([F.rawEntry(id: 2, inbox: F.xOnly(1)), F.rawEntry(id: 1, inbox: F.xOnly(2))]))
        assertRefused(F.component([F.rawEntry(id: 1, inbox: F.xOnly(3)), F.rawEntry(id: 2, inbox: F.xOnly(3))]))
        XCTAssertThrowsError(try InviteLinksV1(links: [try F.entry(id: 1, inbox: 3), try F.entry(id: 2, inbox: 3)]))
        // The initialiser sorts; the decoder does not.
        let sorted = try InviteLinksV1(links: [try F.entry(id: 2, inbox: 1), try F.entry(id: 1, inbox: 2)])
        XCTAssertEqual(sorted.links.map { $0.linkID[0] }, [1, 2])
    }

    func testNonMinimalLengthsRefused() {
        assertRefused([0x40, 0x00])
        assertRefused([0x80, 0x00, 0x00, 0x89] + F.bytes("entry_hex"))
        assertRefused([0xc0, 0, 0, 0, 0, 0, 0, 0x89] + F.bytes("entry_hex"))
    }

    func testInvalidKeysAndValuesRefused() {
        assertRefused(F.component([F.rawEntry(id: 1, inbox: [UInt8](repeating: 0xff, count: 32))]))
        assertRefused(F.component([F.rawEntry(id: 1, inbox: [UInt8](repeating: 0, count: 32))]))
        assertRefused(F.component([F.rawEntry(id: 1, inbox: F.xOnly(1), mode: 2)]))
        assertRefused(F.component([F.rawEntry(id: 1, inbox: F.xOnly(1), expiresAt: 9_007_199_254_740_992)]))
        XCTAssertNoThrow(try InviteLinksV1(decoding: F.component([F.rawEntry(id: 1, inbox: F.xOnly(1), expiresAt: 9_007_199_254_740_991, mode: 1)])))
    }

    func testTrailingAndPartialBytesRefused() {
        assertRefused(F.bytes("component_hex") + [0])
        assertRefused(F.component([F.bytes("entry_hex") + [0]]))
        assertRefused(Array(F.bytes("component_hex").dropLast()))
        XCTAssertThrowsError(try InviteLinkV1(decoding: F.bytes("entry_hex") + [0]))
    }

    // MARK: Transitions

    func transition(_ parent: InviteLinksV1?, _ resulting: InviteLinksV1?, _ facts: InviteLinksCommitFacts = .init()) throws {
        try InviteLinksV1.validateTransition(from: parent, to: resulting, facts: facts)
    }

    func assertTransitionRefused(_ parent: InviteLinksV1?, _ resulting: InviteLinksV1?, _ facts: InviteLinksCommitFacts = .init(),
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try transition(parent, resulting, facts), file: file, line: line) {
            XCTAssertEqual(($0 as? MLSError)?.code, .invalidInviteLinksUpdate, "\($0)", file: file, line: line)
        }
    }

    func testChangedEntryUnderExistingIdRefused() throws {
        let parent = try InviteLinksV1(links: [try F.entry(id: 1, inbox: 1)])
        assertTransitionRefused(parent, try InviteLinksV1(links: [try F.entry(id: 1, inbox: 1, mode: .automatic)]))
        assertTransitionRefused(parent, try InviteLinksV1(links: [try F.entry(id: 1, inbox: 1, expiresAt: 5)]))
        assertTransitionRefused(parent, try InviteLinksV1(links: [try F.entry(id: 1, inbox: 2)]))
        // A new id may not take over the parent's inbox either.
        assertTransitionRefused(parent, try InviteLinksV1(links: [try F.entry(id: 2, inbox: 1)]))
        // Unchanged, added beside, or revoked: fine.
        XCTAssertNoThrow(try transition(parent, parent))
        XCTAssertNoThrow(try transition(parent, try InviteLinksV1(links: [try F.entry(id: 1, inbox: 1), try F.entry(id: 2, inbox: 2)])))
        XCTAssertNoThrow(try transition(parent, .empty))
    }

    func testComponentRemovalRefusedEnablingAccepted() throws {
        let parent = try InviteLinksV1(links: [try F.entry(id: 1, inbox: 1)])
        assertTransitionRefused(parent, nil)
        assertTransitionRefused(.empty, nil)
        XCTAssertNoThrow(try transition(nil, parent))
        XCTAssertNoThrow(try transition(nil, nil))
    }

    func testAdminRemovalMustRetireEveryGeneration() throws {
        let parent = try InviteLinksV1(links: [try F.entry(id: 1, inbox: 1), try F.entry(id: 2, inbox: 2)])
        let retires = InviteLinksCommitFacts(retiresAdmin: true)
        assertTransitionRefused(parent, parent, retires)
        assertTransitionRefused(parent, try InviteLinksV1(links: [try F.entry(id: 2, inbox: 2)]), retires)
        assertTransitionRefused(parent, try InviteLinksV1(links: [try F.entry(id: 3, inbox: 2)]), retires)
        // Fresh generations (new ids and inboxes) are fine; so is disabling.
        XCTAssertNoThrow(try transition(parent, try InviteLinksV1(links: [try F.entry(id: 3, inbox: 3)]), retires))
        XCTAssertNoThrow(try transition(parent, .empty, retires))
    }

    func testSelfDemotionLeavesEmptyVector() throws {
        let parent = try InviteLinksV1(links: [try F.entry(id: 1, inbox: 1)])
        let selfDemotion = InviteLinksCommitFacts(retiresAdmin: true, demotesCommitter: true)
        assertTransitionRefused(parent, try InviteLinksV1(links: [try F.entry(id: 3, inbox: 3)]), selfDemotion)
        assertTransitionRefused(.empty, try InviteLinksV1(links: [try F.entry(id: 3, inbox: 3)]), selfDemotion)
        XCTAssertNoThrow(try transition(parent, .empty, selfDemotion))
        // A remaining admin then creates fresh links in a later Commit.
        XCTAssertNoThrow(try transition(.empty, try InviteLinksV1(links: [try F.entry(id: 3, inbox: 3)])))
    }

    func testDisbandLeavesComponentUnchanged() throws {
        let parent = try InviteLinksV1(links: [try F.entry(id: 1, inbox: 1)])
        let disband = InviteLinksCommitFacts(disbands: true)
        XCTAssertNoThrow(try transition(parent, parent, disband))
        assertTransitionRefused(parent, .empty, disband)
    }

    func testComponentIDRegistered() {
        XCTAssertEqual(ComponentID.inviteLinks, 0x800e)
        // Advertised: a requester's offered leaf must support a group's 0x800e to be added.
        XCTAssertTrue(ComponentID.currentProfileSupported.contains(ComponentID.inviteLinks))
    }
}
