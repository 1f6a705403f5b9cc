import XCTest
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitInvites

/// PROTOCOL §3.1: every invite or link InviteKit builds parses back. For random inputs on both
/// sides of each reader's limit, a builder either refuses (naming the limit) or produces
/// something its reader accepts with the same fields; both outcomes must occur.
final class BuilderReaderPropertyTests: XCTestCase {
    let rng = SeededRandom(seed: 13)
    let key = try! Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [3])
    let alphabet = Array("abcXYZ019 /?#%+=&é€😀\"\\\n".unicodeScalars)

    func randomString(_ count: Int) -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<count { s.append(alphabet[Int(rng.uniform(UInt32(alphabet.count)))]) }
        return String(s)
    }

    func testWhistleCodeBuilderAndReaderAgree() throws {
        var refused = 0, accepted = 0
        for _ in 0..<200 {
            let groupId = randomString(Int(rng.uniform(1500)))
            let relay = ["wss://r.example", "ws://10.0.0.1:7777/x", "wss://" + String(repeating: "r", count: Int(rng.uniform(2100)))][Int(rng.uniform(3))]
            do {
                let code = try InviteCode(checkedRelay: relay, inviter: key.publicKey, groupId: groupId)
                accepted += 1
                XCTAssertEqual(try InviteCode(code: code.code), code)
                XCTAssertEqual(try InviteCode(url: code.url), code)
            } catch {
                refused += 1
                XCTAssertTrue(error.code == .inputTooLarge || error.code == .invalidArgument, "\(error)")
                if error.code == .inputTooLarge { XCTAssertTrue(error.detail.contains("\(InviteCode.maxInputLength)")) }
            }
        }
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(accepted, 0)
    }

    func testSignedInviteBuilderAndReaderAgree() throws {
        var refused = 0, accepted = 0
        for i in 0..<24 {
            // Alternate compressible and incompressible names around the slug limit.
            let length = 30_000 + Int(rng.uniform(60_000))
            let name = i % 2 == 0 ? String(repeating: "a", count: length * 20) : Base64.encode(rng.bytes(length * 3 / 4))
            do {
                let invite = try SignedInvite.create(conversationID: "g", creator: key, options: InviteOptions(relays: ["wss://r.example"], name: name))
                accepted += 1
                let url = try InviteLink.url(slug: invite.encodedSlug())
                let back = try SignedInvite(slug: try InviteLink.slug(from: url))
                XCTAssertEqual(back.payload.name, name)
            } catch {
                refused += 1
                XCTAssertEqual(error.code, .inputTooLarge, "\(error)")
                XCTAssertTrue(error.detail.contains("\(InviteSlug.maxLength)") || error.detail.contains("\(InviteCompression.maxInflatedSize)"), error.detail)
            }
        }
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(accepted, 0)
    }

    func testApprovalURLBuilderAndReaderAgree() throws {
        var refused = 0, accepted = 0
        for _ in 0..<200 {
            let groupId = randomString(Int(rng.uniform(5000)))
            do {
                let a = try ApprovalURL(checkedPubkey: key.publicKey, groupId: groupId)
                accepted += 1
                XCTAssertEqual(try ApprovalURL(url: a.url), a)
            } catch {
                refused += 1
                XCTAssertEqual(error.code, .inputTooLarge, "\(error)")
                XCTAssertTrue(error.detail.contains("\(ApprovalURL.maxGroupIdBytes)"))
            }
        }
        XCTAssertGreaterThan(refused, 0)
        XCTAssertGreaterThan(accepted, 0)
    }
}
