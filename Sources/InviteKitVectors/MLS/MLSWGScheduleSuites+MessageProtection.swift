import InviteKitMLS
import Foundation
import InviteKitCrypto

extension MLSWGScheduleSuites {
    /// message-protection.json: the given public and private messages unprotect to the raw
    /// proposal, commit and application bytes; protecting those again round-trips; application
    /// data is refused as a PublicMessage. Sender is leaf 1 of a 2-leaf secret tree.
    static func messageProtection(_ e: [String: Any], suite: CipherSuite) -> String? {
        do {
            let groupID = hex(e["group_id"])
            guard let epoch = (e["epoch"] as? NSNumber)?.uint64Value else { return "no epoch" }
            let gc = groupContext(suite: suite, groupID: groupID, epoch: epoch, treeHash: hex(e["tree_hash"]),
                                  confirmedTranscriptHash: hex(e["confirmed_transcript_hash"]))
            let signer = try Ed25519.PrivateKey(rawRepresentation: hex(e["signature_priv"]))
            let pub = hex(e["signature_pub"])
            let membershipKey = SecureBytes(copying: hex(e["membership_key"]))
            let senderDataSecret = SecureBytes(copying: hex(e["sender_data_secret"]))
            let encryptionSecret = hex(e["encryption_secret"])
            func freshTree() throws -> SecretTree {
                try SecretTree(encryptionSecret: SecureBytes(copying: encryptionSecret), leafCount: 2, suite: suite)
            }
            func content(_ body: FramedContent.Body) -> FramedContent {
                FramedContent(groupID: groupID, epoch: epoch, sender: .member(leafIndex: 1), body: body)
            }

            let bodies: [(String, FramedContent.Body)] = [
                ("proposal", .proposal(hex(e["proposal"]))), ("commit", .commit(hex(e["commit"]))),
                ("application", .application(hex(e["application"]))),
            ]
            for (name, body) in bodies {
                let tag: [UInt8]? = body.contentType == .commit ? [UInt8](repeating: 0xAB, count: 32) : nil

                if body.contentType != .application {
                    // The given PublicMessage.
                    let wire = hex(e["\(name)_pub"])
                    let msg = try MLSFramedMessage(tlsSerialized: wire)
                    guard msg.tlsSerialized == wire, case .publicMessage(let pm) = msg else { return "\(name)_pub: framing" }
                    let ac = try pm.unprotect(groupID: groupID, epoch: epoch, membershipKey: membershipKey, groupContext: gc)
                    try ac.verifySignature(publicKey: pub, groupContext: gc)
                    guard ac.content.body == body else { return "\(name)_pub: content" }
                    // Our own PublicMessage.
                    var signed = AuthenticatedContent.sign(wireFormat: .publicMessage, content: content(body), signer: signer, groupContext: gc)
                    signed.auth.confirmationTag = tag
                    let mine = try PublicMessage.protect(signed, membershipKey: membershipKey, groupContext: gc)
                    let back = try MLSFramedMessage(tlsSerialized: MLSFramedMessage.publicMessage(mine).tlsSerialized)
                    guard case .publicMessage(let pm2) = back else { return "\(name): own package framing" }
                    let ac2 = try pm2.unprotect(groupID: groupID, epoch: epoch, membershipKey: membershipKey, groupContext: gc)
                    try ac2.verifySignature(publicKey: pub, groupContext: gc)
                    guard ac2.content.body == body else { return "\(name): own package content" }
                } else {
                    let signed = AuthenticatedContent.sign(wireFormat: .publicMessage, content: content(body), signer: signer, groupContext: gc)
                    if (try? PublicMessage.protect(signed, membershipKey: membershipKey, groupContext: gc)) != nil {
                        return "application data was accepted as a PublicMessage"
                    }
                }

                // The given PrivateMessage.
                let wire = hex(e["\(name)_priv"])
                let msg = try MLSFramedMessage(tlsSerialized: wire)
                guard msg.tlsSerialized == wire, case .privateMessage(let pm) = msg else { return "\(name)_priv: framing" }
                var tree = try freshTree()
                let ac = try pm.unprotect(groupID: groupID, epoch: epoch, secretTree: &tree, senderDataSecret: senderDataSecret)
                try ac.verifySignature(publicKey: pub, groupContext: gc)
                guard ac.content.body == body, ac.content.sender == .member(leafIndex: 1) else { return "\(name)_priv: content" }

                // Our own PrivateMessage.
                var signed = AuthenticatedContent.sign(wireFormat: .privateMessage, content: content(body), signer: signer, groupContext: gc)
                signed.auth.confirmationTag = tag
                var senderTree = try freshTree()
                let mine = try PrivateMessage.protect(signed, secretTree: &senderTree, senderDataSecret: senderDataSecret, padTo: 32)
                let back = try MLSFramedMessage(tlsSerialized: MLSFramedMessage.privateMessage(mine).tlsSerialized)
                guard case .privateMessage(let pm2) = back else { return "\(name): own private framing" }
                var receiverTree = try freshTree()
                let ac2 = try pm2.unprotect(groupID: groupID, epoch: epoch, secretTree: &receiverTree, senderDataSecret: senderDataSecret)
                try ac2.verifySignature(publicKey: pub, groupContext: gc)
                guard ac2.content.body == body, ac2.auth == signed.auth else { return "\(name): own private content" }
            }
            return nil
        } catch {
            return "threw \(error)"
        }
    }
}
