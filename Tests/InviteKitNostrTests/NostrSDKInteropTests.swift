import XCTest
import InviteKitTestSupport
import InviteKitCrypto
@testable import InviteKitNostr

/// Interop with an independent implementation (rust-nostr through PyPI nostr-sdk), both ways,
/// for NIP-44 and NIP-59.
final class NostrSDKInteropTests: XCTestCase {
    let alice = Secp256k1.PrivateKey(using: SeededRandom(seed: 501))
    let bob = Secp256k1.PrivateKey(using: SeededRandom(seed: 502))

    override func setUpWithError() throws {
        if !PythonPeer.isAvailable {
            if PythonPeer.mustRun { XCTFail("the nostr-sdk venv is missing; run scripts/peer/setup.sh") }
            throw XCTSkip("nostr-sdk venv not installed (scripts/peer/setup.sh)")
        }
    }

    func secretHex(_ k: Secp256k1.PrivateKey) -> String { Hex.encode(k.rawRepresentation.exportBytes()) }

    func testNIP44BothDirections() throws {
        for text in ["a", "hello ☕ nostr", String(repeating: "x", count: 5000)] {
            let ours = try NIP44.encrypt(Array(text.utf8), from: alice, to: bob.publicKey)
            let theirPlain = try PythonPeer.call("nip44-decrypt", ["secretKey": secretHex(bob), "publicKey": alice.publicKey.hex, "payload": ours])
            XCTAssertEqual(theirPlain["plaintext"] as? String, text)

            let theirs = try PythonPeer.call("nip44-encrypt", ["secretKey": secretHex(bob), "publicKey": alice.publicKey.hex, "plaintext": text])
            let plain = try NIP44.decrypt(theirs["payload"] as! String, recipient: alice, sender: bob.publicKey)
            XCTAssertEqual(String(decoding: plain, as: UTF8.self), text)
        }
    }

    func testGiftWrapBothDirections() throws {
        let template = EventTemplate(kind: 14, content: "join me ☕ \"quoted\"\n", tags: [["p", bob.publicKey.hex], ["subject", "x/y"]], createdAt: 1_790_000_000)
        let ours = try GiftWrap.wrap(template: template, from: alice, to: bob.publicKey)
        let wrapObject = try JSONSerialization.jsonObject(with: Data(ours.jsonBytes))
        let opened = try PythonPeer.call("unwrap", ["secretKey": secretHex(bob), "wrap": wrapObject])
        XCTAssertEqual(opened["sender"] as? String, alice.publicKey.hex)
        let rumor = opened["rumor"] as! [String: Any]
        XCTAssertEqual(rumor["content"] as? String, template.content)
        XCTAssertEqual(rumor["id"] as? String, template.rumor(pubkey: alice.publicKey).id)

        let theirs = try PythonPeer.call("wrap", ["secretKey": secretHex(alice), "recipient": bob.publicKey.hex,
                                                  "rumor": ["kind": 14, "content": template.content, "tags": template.tags, "created_at": 1_790_000_000]])
        let theirWrap = try NostrEvent(json: Array(try JSONSerialization.data(withJSONObject: theirs)))
        let unwrapped = try GiftWrap.unwrap(theirWrap, recipient: bob)
        XCTAssertEqual(unwrapped.sender, alice.publicKey)
        XCTAssertEqual(unwrapped.rumor.content, template.content)
        XCTAssertEqual(unwrapped.rumor.tags, template.tags)
        XCTAssertEqual(unwrapped.rumor.id, template.rumor(pubkey: alice.publicKey).id)
    }

    func testPeerRejectsOurSpoofedSeal() throws {
        let mallory = Secp256k1.PrivateKey(using: SeededRandom(seed: 503))
        let rumor = EventTemplate(kind: 14, content: "I am Alice").rumor(pubkey: alice.publicKey)
        let seal = try EventTemplate(kind: 13, content: try NIP44.encrypt(rumor.jsonBytes, from: mallory, to: bob.publicKey)).signed(by: mallory)
        let oneTime = Secp256k1.PrivateKey()
        let wrap = try EventTemplate(kind: 1059, content: try NIP44.encrypt(seal.jsonBytes, from: oneTime, to: bob.publicKey),
                                     tags: [["p", bob.publicKey.hex]]).signed(by: oneTime)
        XCTAssertThrowsError(try PythonPeer.call("unwrap", ["secretKey": secretHex(bob), "wrap": try JSONSerialization.jsonObject(with: Data(wrap.jsonBytes))]))
        XCTAssertThrowsError(try GiftWrap.unwrap(wrap, recipient: bob))
    }
}
