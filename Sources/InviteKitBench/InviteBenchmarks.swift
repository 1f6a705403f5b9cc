import InviteKit

/// Whistle codes and signed invites.
enum InviteBenchmarks {
    static func cases() throws -> [BenchCase] {
        let key = Secp256k1.PrivateKey()
        let options = InviteOptions(relays: ["wss://relay.example.com"], name: "Book club", expiresAtUnix: UnixTime.now() + 86_400, singleUse: true)
        let conversation = String(repeating: "ab", count: 32)
        let url = try SignedInvite.create(conversationID: conversation, creator: key, options: options).url()
        let code = InviteCode(relay: "wss://relay.example.com", inviter: key.publicKey, groupId: conversation)
        let codeText = code.code
        return [
            BenchCase("whistle.encode") { _ = code.url },
            BenchCase("whistle.decode") { _ = try InviteCode(code: codeText) },
            BenchCase("invite.signed.create", floor: "c.ecdsa.sign") { _ = try SignedInvite.create(conversationID: conversation, creator: key, options: options).url() },
            BenchCase("invite.signed.verify", floor: "c.ecdsa.recover") { _ = try SignedInvite.decodeAndVerify(url) },
        ]
    }
}
