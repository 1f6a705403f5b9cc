import XCTest
import InviteKitCrypto
@testable import InviteKitMLS

/// The stored form of a generation (PROTOCOL §5.14.15; docs/storage.md §6 `invite_links`): it
/// round-trips with its secrets, and a stored form whose key or preview does not open its entry
/// is refused.
final class InviteLinkGenerationStorageTests: XCTestCase {
    func testAGenerationRoundTripsAndAForeignKeyIsRefused() throws {
        let made = try InviteLinkGeneration.create(name: "club", description: "d", expiresAt: 2_000_000_000, approvalMode: .automatic,
                                                   requestRelays: ["wss://relay.example.com"], rng: SeededRandom(seed: 4))
        let back = try InviteLinkGeneration(serialized: made.serialized())
        XCTAssertEqual(back.entry, made.entry)
        XCTAssertEqual(back.preview, made.preview)
        XCTAssertEqual(back.code.bech32m, made.code.bech32m)
        XCTAssertEqual(try back.inboxKey.publicKey.rawRepresentation, made.entry.inboxPublicKey)
        XCTAssertEqual(back.serialized().withUnsafeBytes { Array($0) }, made.serialized().withUnsafeBytes { Array($0) })

        let other = try InviteLinkGeneration.create(name: "club", approvalMode: .manual, requestRelays: ["wss://relay.example.com"],
                                                    rng: SeededRandom(seed: 5))
        let swapped = InviteLinkGeneration(entry: made.entry, code: made.code, preview: made.preview, inboxPrivateKey: other.inboxPrivateKey)
        XCTAssertThrowsError(try InviteLinkGeneration(serialized: swapped.serialized())) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidValue) }
        let wrongPreview = InviteLinkGeneration(entry: made.entry, code: made.code, preview: other.preview, inboxPrivateKey: made.inboxPrivateKey)
        XCTAssertThrowsError(try InviteLinkGeneration(serialized: wrongPreview.serialized())) { XCTAssertEqual(($0 as? MLSError)?.code, .invalidValue) }
        XCTAssertThrowsError(try InviteLinkGeneration(serialized: SecureBytes(copying: [1, 2, 3])))
    }
}
