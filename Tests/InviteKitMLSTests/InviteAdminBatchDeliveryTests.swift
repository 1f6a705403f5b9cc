import InviteKitCrypto
import InviteKitMLS
import InviteKitNostr
import InviteKitTestSupport
import XCTest

/// Admin records inside MLS (PROTOCOL §5.14.12): a grant batched to two admins, opened by each,
/// and the forgeries a receiver refuses.
final class InviteAdminBatchDeliveryTests: XCTestCase {
    typealias F = InviteLinkFixture
    let now: Int64 = 1_800_000_000
    let alice = F.privateKey(21), bob = F.privateKey(22), carol = F.privateKey(23), mallory = F.privateKey(24)
    let groupID: [UInt8] = [7, 7, 7]

    var admins: Set<[UInt8]> { [alice, bob, carol].map { $0.publicKey.rawRepresentation }.reduce(into: []) { $0.insert($1) } }

    func grantBatch(from sender: Secp256k1.PrivateKey, to recipients: [Secp256k1.PrivateKey], epoch: UInt64 = 5) throws
        -> (InviteLinkGeneration, InviteAdminBatchV1) {
        let gen = try InviteLinkGeneration.create(name: "Club", approvalMode: .manual, requestRelays: ["wss://relay.example"])
        let record = try gen.grant(groupID: groupID, sourceEpoch: epoch)
        let batch = try InviteAdminBatchDelivery.make(recipients.map { .init(recipient: $0.publicKey.rawRepresentation, record: record) },
                                                      admin: sender, now: now)
        return (gen, batch)
    }

    func testEachAdminOpensOnlyItsCopyAndTheGrantIsUsable() throws {
        let (gen, batch) = try grantBatch(from: alice, to: [bob, carol])
        let wire = try InviteAdminBatchV1(content: batch.content)
        for admin in [bob, carol] {
            let record = try XCTUnwrap(try InviteAdminBatchDelivery.open(wire, me: admin, sender: alice.publicKey.rawRepresentation,
                                                                         groupID: groupID, sourceEpoch: 5, admins: admins))
            let granted = try InviteLinkGeneration(grant: record, current: try InviteLinksV1(links: [gen.entry]))
            XCTAssertEqual(try granted.inboxKey.publicKey.rawRepresentation, gen.entry.inboxPublicKey)
        }
        XCTAssertNil(try InviteAdminBatchDelivery.open(wire, me: alice, sender: alice.publicKey.rawRepresentation, groupID: groupID,
                                                       sourceEpoch: 5, admins: admins), "no copy for the sender itself")
        // Each envelope is canonical gift-wrap JSON with exactly its recipient's p tag.
        for e in wire.envelopes {
            let wrap = try NostrEvent(canonicalJSON: e.transportEnvelope)
            XCTAssertEqual(wrap.tags, [["p", Hex.encode(e.recipientAccount)]])
            XCTAssertEqual(wrap.kind, 1059)
        }
    }

    func testForgeriesAndFormerAdminsAreRefused() throws {
        let (_, batch) = try grantBatch(from: alice, to: [bob])
        func open(_ b: InviteAdminBatchV1, sender: Secp256k1.PrivateKey = F.privateKey(21), epoch: UInt64 = 5, group: [UInt8]? = nil,
                  admins a: Set<[UInt8]>? = nil) throws -> InviteAdminRecordV1? {
            try InviteAdminBatchDelivery.open(b, me: bob, sender: sender.publicKey.rawRepresentation, groupID: group ?? groupID, sourceEpoch: epoch,
                                              admins: a ?? admins)
        }
        func refused(_ body: @autoclosure () throws -> InviteAdminRecordV1?, _ code: MLSError.Code, line: UInt = #line) {
            XCTAssertThrowsError(try body(), line: line) { XCTAssertEqual(($0 as? MLSError)?.code, code, "\($0)", line: line) }
        }
        // Another member relays Alice's batch as its own MLS message: the seal says Alice.
        refused(try open(batch, sender: carol), .invalidInviteRecord)
        // The record is bound to its group and source epoch.
        refused(try open(batch, epoch: 6), .invalidInviteRecord)
        refused(try open(batch, group: [1]), .invalidInviteRecord)
        // A former admin's batch, or one naming a non-admin recipient, is refused as a whole.
        var former = admins
        former.remove(alice.publicKey.rawRepresentation)
        refused(try open(batch, admins: former), .inviteUnauthorized)
        let (_, toMallory) = try grantBatch(from: alice, to: [bob, mallory])
        refused(try open(toMallory), .inviteUnauthorized)

        // A re-spelled envelope (whitespace, key order) is not canonical.
        let canonical = batch.envelopes[0].transportEnvelope
        let wrap = try NostrEvent(canonicalJSON: canonical)
        for spelled in [Array(" ".utf8) + canonical, wrap.jsonBytes] {
            let forged = try InviteAdminBatchV1(envelopes: [.init(recipientAccount: bob.publicKey.rawRepresentation, transportEnvelope: spelled)])
            refused(try open(forged), .invalidInviteRecord)
        }
        // A wrap with an extra tag is refused before decryption.
        let rumor = EventTemplate(kind: 461, content: "AAAA").rumor(pubkey: alice.publicKey, now: now)
        let tagged = try GiftWrap.wrap(rumor, from: alice, to: bob.publicKey, extraTags: [["e", "00"]], now: now)
        let forged = try InviteAdminBatchV1(envelopes: [.init(recipientAccount: bob.publicKey.rawRepresentation,
                                                              transportEnvelope: tagged.canonicalJSONBytes)])
        refused(try open(forged), .invalidInviteRecord)
    }
}
