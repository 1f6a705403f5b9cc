import XCTest
import Foundation
import InviteKitTestSupport
@testable import InviteKit
@testable import InviteKitMLS

/// A Welcome answers the join whose KeyPackage it was made for (issue 30): concurrent joins to
/// many groups of one inviter each end in their own group; and a Welcome that cannot be used ends
/// its join at once with a typed failure, its KeyPackage kept (issue 31, D7).
final class NodeJoinMatchingTests: XCTestCase {
    private let homes = NodeHomes()

    override func tearDown() { homes.remove() }

    func testTenConcurrentJoinsToTenGroupsOfOneInviterEachEndInTheirOwnGroup() async throws {
        let ada = try homes.node("ada", seed: 1)
        let bob = try homes.node("bob", seed: 2)
        let runners = [ada, bob].map { node in Task { try await node.run() } }
        defer { runners.forEach { $0.cancel() } }
        var invites: [(groupID: String, url: String)] = []
        for i in 0..<10 {
            let group = try await ada.createGroup(name: "g\(i)")
            invites.append((group.id, try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600).url))
        }
        for round in 0..<2 {
            let joined = try await withThrowingTaskGroup(of: (String, String).self) { tasks in
                for (groupID, url) in invites.shuffled() {
                    tasks.addTask {
                        let g = try await bob.join(url, timeout: .seconds(60))
                        return (groupID, g.id)
                    }
                }
                var out: [(String, String)] = []
                for try await r in tasks { out.append(r) }
                return out
            }
            XCTAssertEqual(joined.count, 10)
            for (expected, got) in joined { XCTAssertEqual(got, expected, "round \(round): a join ended in another group") }
            if round == 0 {
                // Again with fresh single-use invites (bob is already a member: new groups).
                invites = []
                for i in 0..<10 {
                    let group = try await ada.createGroup(name: "h\(i)")
                    invites.append((group.id, try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600).url))
                }
            }
        }
        let joins = try await bob.pendingJoins()
        XCTAssertTrue(joins.isEmpty, "every join was answered")
    }

    /// The inviter's Welcome names the join's KeyPackage but cannot be opened: the join ends at
    /// once, stored as failed with the Welcome's code, and the KeyPackage stays usable.
    func testAnUnusableWelcomeEndsItsJoinAtOnceWithATypedError() async throws {
        let ada = try homes.node("ada", seed: 1)
        let bob = try homes.node("bob", seed: 2)
        let adaRunner = Task { try await ada.run() }
        defer { adaRunner.cancel() }
        let group = try await ada.createGroup(name: "club")
        let url = try await ada.createInvite(groupID: group.id, singleUse: true, expiresIn: 3600).url
        // Ada's node must not answer: stop it, and forge the inviter's Welcome by hand.
        adaRunner.cancel()
        _ = await adaRunner.result
        let record = try await bob.startJoin(invite: url)
        let reference = try XCTUnwrap(record.keyPackageRef)
        let bogus = Welcome(cipherSuite: .x25519Aes128GcmSha256Ed25519,
                            secrets: [EncryptedGroupSecrets(newMember: reference, encryptedGroupSecrets: HPKECiphertext(kemOutput: [UInt8](repeating: 9, count: 32), ciphertext: [1, 2, 3]))],
                            encryptedGroupInfo: [UInt8](repeating: 7, count: 64))
        let inviter = try Secp256k1.XOnlyPublicKey(rawRepresentation: record.inviter)
        let identity = await ada.signingKey
        XCTAssertEqual(identity.publicKey, inviter)
        let rumor = try MarmotWelcomeRumor.make(welcomeMessage: MLSMessage(.welcome(bogus)).tlsSerialized,
                                                keyPackageEventID: try XCTUnwrap(record.keyPackageEventID), relays: [homes.relay.url],
                                                committer: inviter, createdAt: homes.now, profile: .current)
        let wrap = try GiftWrap.wrap(rumor, from: identity, to: bob.publicKey, now: homes.now)
        let started = ContinuousClock.now
        _ = try await bob.handleGiftWrap(wrap)
        do {
            _ = try await bob.waitForJoin(record.id, timeout: .seconds(30))
            XCTFail("the join did not fail")
        } catch {
            XCTAssertEqual(error.code, .welcomeFailed)
            XCTAssertEqual(error.underlyingCode, "decryption_failed")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "the failure was not reported at once")
        let kept = try bob.keyPackages.bundle(reference: reference)
        XCTAssertNotNil(kept, "a failed Welcome keeps its KeyPackage")
    }
}
