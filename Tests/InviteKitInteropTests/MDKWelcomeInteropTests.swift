import XCTest
import InviteKitCrypto
import InviteKitNostr
import InviteKitMLS

/// MDK's Welcome reaching an InviteKit member: gift wrap (NIP-59) opened by InviteKit, the
/// kind-444 rumor read (Marmot MIP-02), and the RFC 9420 Welcome inside checked byte by byte:
/// it names InviteKit's KeyPackage. Joining from it is covered by InviteKitMDKScenarioTests.
final class MDKWelcomeInteropTests: XCTestCase {
    var worker: MDKWorker!
    let relays = InteropScenarios.relays

    override func setUpWithError() throws { worker = try MDKWorker.startOrSkip() }
    override func tearDown() { worker = nil }

    func testInviteKitUnwrapsMDKWelcomeAndParsesTheRumor() throws {
        let mdk = try worker.newPeer("mdk")
        let member = InviteKitMember(label: "ik")
        let kpEvent = try member.keyPackageEvent(relays: relays)
        let (group, change) = try mdk.createGroup(name: "welcome", relays: relays, admins: [mdk.pubkey], inviting: [kpEvent])
        let wrap = try XCTUnwrap(change.welcome(for: member.pubkey))

        let gift = try GiftWrap.unwrap(wrap, recipient: member.key)
        XCTAssertEqual(gift.sender.hex, mdk.pubkey)
        let rumor = gift.rumor
        XCTAssertEqual(rumor.kind, 444)
        XCTAssertNil(rumor.sig)
        XCTAssertEqual(rumor.pubkey, mdk.pubkey)
        XCTAssertEqual(rumor.firstTagValue("e"), kpEvent.id)
        XCTAssertEqual(rumor.firstTagValue("encoding"), "base64")
        XCTAssertEqual(rumor.tags.first { $0.first == "relays" }.map { Array($0.dropFirst()) }, relays)

        // InviteKit's own Marmot reader agrees.
        let parsed = try MarmotWelcomeRumor.parse(rumor)
        XCTAssertEqual(parsed.keyPackageEventID, kpEvent.id)
        XCTAssertEqual(parsed.relays, relays)
        XCTAssertEqual(parsed.client, "MDK/0.8.0")

        let bytes = try XCTUnwrap(Base64.decode(rumor.content), "content is not base64")
        XCTAssertEqual(parsed.welcomeMessage, bytes)
        var r = TLSReader(bytes)
        XCTAssertEqual(try r.readUInt16(), 1, "MLSMessage version mls10")
        XCTAssertEqual(try r.readUInt16(), MLSMessage.WireFormat.welcome.rawValue)
        // Welcome (RFC 9420 §12.4.3.1): cipher_suite, secrets<V>, encrypted_group_info<V>.
        XCTAssertEqual(try r.readUInt16(), 0x0001)
        let newMembers = try r.readVector { r -> [UInt8] in
            let ref = try r.readOpaque()            // new_member: KeyPackageRef
            _ = try r.readOpaque()                  // HPKECiphertext.kem_output
            _ = try r.readOpaque()                  // HPKECiphertext.ciphertext
            return ref
        }
        XCTAssertEqual(newMembers, [kpEvent.firstTagValue("i").flatMap(Hex.decode) ?? []])
        XCTAssertEqual(Hex.encode(newMembers.first ?? []), kpEvent.firstTagValue("i"))
        XCTAssertGreaterThan(try r.readOpaque().count, 0, "encrypted_group_info")
        XCTAssertNoThrow(try r.finish())
        XCTAssertFalse(group.isEmpty)
    }

    /// MDK's kind-445 events pass InviteKit's envelope checks (kind, signature, one `h` tag naming
    /// the group's nostr_group_id, base64 encoding, created_at window); opening them needs the engine.
    func testInviteKitReadsTheEnvelopeOfMDKGroupEvents() throws {
        let alice = try worker.newPeer("alice"), bob = try worker.newPeer("bob")
        let group = try InteropScenarios.createAndJoin(creator: alice, joiner: bob)
        let nostrGroupID = try XCTUnwrap((try alice.groupInfo(group)["group"] as? [String: Any])?["nostr_group_id"] as? String)
        let message = try alice.send("hello", group: group)
        let commit = try XCTUnwrap(try bob.selfUpdate(group: group).commit)
        for event in [message, commit] {
            let (id, sealed) = try MarmotGroupEvent.envelope(event)
            XCTAssertEqual(Hex.encode(id), nostrGroupID)
            XCTAssertFalse(sealed.isEmpty)
        }
        XCTAssertNotEqual(message.pubkey, commit.pubkey, "each kind 445 is signed by its own fresh key")
    }
}
