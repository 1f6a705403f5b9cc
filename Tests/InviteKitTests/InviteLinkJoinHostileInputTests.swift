import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// Hostile codes and previews on the joiner's side (PROTOCOL §5.14.16): refused within the
/// spec's bounds with a typed error, and nothing stored or queued.
final class InviteLinkJoinHostileInputTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    private func assertNothingStored(_ node: InviteKitNode, file: StaticString = #filePath, line: UInt = #line) async throws {
        let joins = try await node.inviteLinkJoins()
        XCTAssertTrue(joins.isEmpty, "no attempt stored", file: file, line: line)
        // (The relay lists queued when the home was made are not the link's.)
        let queued = try node.store.read { tx in try tx.outbound.due(now: .max) }.filter { $0.purpose == .inviteLinkRequest || $0.purpose == .keyPackage }
        XCTAssertTrue(queued.isEmpty, "no KeyPackage or request queued", file: file, line: line)
    }

    private func assertRefused(_ code: InviteKitError.Code, _ underlying: String? = nil, _ body: () async throws -> Void,
                               file: StaticString = #filePath, line: UInt = #line) async {
        do {
            try await body()
            XCTFail("accepted", file: file, line: line)
        } catch let error as InviteKitError {
            XCTAssertEqual(error.code, code, file: file, line: line)
            if let underlying { XCTAssertEqual(error.underlyingCode, underlying, file: file, line: line) }
        } catch {
            XCTFail("not an InviteKitError: \(error)", file: file, line: line)
        }
    }

    func testOversizedAndMalformedCodesAreRefusedBeforeAnythingIsFetchedOrStored() async throws {
        let bob = try homes.node("bob", seed: 2)
        let generation = try InviteLinkGeneration.create(name: "g", approvalMode: .manual, requestRelays: ["wss://links.invitekit.test"],
                                                         rng: SeededRandom(seed: 3))
        let good = generation.code.bech32m
        let oversized = "marmot1" + String(repeating: "q", count: InviteCodeV1.maxTextLength)
        var flipped = Array(good)
        flipped[flipped.count - 1] = flipped[flipped.count - 1] == "q" ? "p" : "q"
        let naddr = "naddr1" + String(good.dropFirst("marmot1".count))
        let mixedCase = String(good.uppercased().prefix(20)) + String(good.dropFirst(20))
        let preview = try XCTUnwrap(generation.preview)
        let bads: [String] = [oversized, String(flipped), naddr, "", "marmot1", mixedCase]
        for bad in bads {
            await assertRefused(.inviteInvalid, "invalid_invite_code") { _ = try await bob.previewInviteLink(code: bad) }
            await assertRefused(.inviteInvalid, "invalid_invite_code") {
                _ = try await bob.joinByInviteLink(code: bad, preview: preview)
            }
        }
        let before = await homes.relay.events(matching: [NostrFilter()]).count
        XCTAssertEqual(before, 0, "nothing reached the relay")
        try await assertNothingStored(bob)
    }

    func testAPreviewThatIsNotTheCodesIsRefusedAndNothingStored() async throws {
        let bob = try homes.node("bob", seed: 2)
        let rng = SeededRandom(seed: 4)
        let generation = try InviteLinkGeneration.create(name: "g", approvalMode: .manual, requestRelays: ["wss://links.invitekit.test"], rng: rng)
        let another = try InviteLinkGeneration.create(name: "g", approvalMode: .manual, requestRelays: ["wss://links.invitekit.test"], rng: rng)
        await assertRefused(.inviteInvalid, "invalid_invite_preview") {
            _ = try await bob.joinByInviteLink(code: generation.code.bech32m, preview: another.preview!)
        }
        await assertRefused(.inviteInvalid) {
            _ = try await bob.joinByInviteLink(code: generation.code.bech32m, preview: generation.preview!, validFor: 31 * 86_400)
        }
        await assertRefused(.inviteInvalid) {
            _ = try await bob.joinByInviteLink(code: generation.code.bech32m, preview: generation.preview!, validFor: 0)
        }
        try await assertNothingStored(bob)
    }

    func testForgedOrTamperedDescriptorsAreNotShown() async throws {
        let bob = try homes.node("bob", seed: 2)
        let rng = SeededRandom(seed: 5)
        let generation = try InviteLinkGeneration.create(name: "g", approvalMode: .manual, requestRelays: ["wss://links.invitekit.test"], rng: rng)
        let inbox = try generation.inboxKey
        let d = Hex.encode(generation.code.linkID)
        // The inbox's own descriptor with its ciphertext changed, one too large to read, and one
        // signed by another key (not replaceable by the inbox's, so it stays, newest of all).
        let stranger = Secp256k1.PrivateKey(using: rng)
        let good = try InvitePreviewDescriptorEvent.make(generation.preview!, previewKey: generation.code.previewKey, inboxKey: inbox,
                                                         now: homes.now + 10)
        var bytes = Array(good.content.utf8)
        bytes[20] = bytes[20] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tampered = try EventTemplate(kind: InviteLinkNostr.descriptorKind, content: String(decoding: bytes, as: UTF8.self), tags: [["d", d]],
                                         createdAt: homes.now + 1).signed(by: inbox, using: rng)
        let huge = try EventTemplate(kind: InviteLinkNostr.descriptorKind, content: String(repeating: "A", count: 80_000), tags: [["d", d]],
                                     createdAt: homes.now + 2).signed(by: inbox, using: rng)
        let forged = try EventTemplate(kind: InviteLinkNostr.descriptorKind, content: good.content, tags: [["d", d]], createdAt: homes.now + 20)
            .signed(by: stranger, using: rng)
        for e in [tampered, forged] {
            _ = await homes.relay.publish(e, timeout: .seconds(5))
            await assertRefused(.inviteInvalid, "invite_link_preview_invalid") { _ = try await bob.previewInviteLink(code: generation.code.bech32m) }
        }
        _ = await homes.relay.publish(huge, timeout: .seconds(5))
        await assertRefused(.inviteInvalid, "invite_link_preview_invalid") { _ = try await bob.previewInviteLink(code: generation.code.bech32m) }
        // The valid one is shown; the forged one, though newer, is skipped.
        _ = await homes.relay.publish(good, timeout: .seconds(5))
        let shown = try await bob.previewInviteLink(code: generation.code.bech32m)
        XCTAssertEqual(shown.descriptorEventID, good.id)
        try await assertNothingStored(bob)
    }
}
