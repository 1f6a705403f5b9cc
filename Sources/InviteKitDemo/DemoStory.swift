import Foundation
import InviteKitCrypto
import InviteKitNostr
import InviteKitInvites
import InviteKitMLS
import InviteKitRelay
import InviteKit

/// The whole InviteKit story in one process, over any relays (in-memory or real):
/// 1 create a group, 2 make an invite (URL + QR), 3 send a join request, 4 Commit then Welcome,
/// 5 exchange messages, 6 a failed join with its user-facing message, 7 remove a member.
package enum DemoStory {
    package static func run(pool: RelayPool, rng: RandomSource = SystemRandom(), showQR: Bool = true,
                           emit: (StoryStep) -> Void) async throws -> Bool {
        var allOK = true
        func record(_ step: Int, _ title: String, _ actor: String, _ ok: Bool, _ ids: [(String, String)], _ text: [String]) {
            allOK = allOK && ok
            emit(StoryStep(step: step, title: title, actor: actor, ok: ok, ids: ids, text: text))
        }
        let ada = GroupParticipant(name: "Ada", key: Secp256k1.PrivateKey(using: rng), pool: pool, rng: rng)
        let ben = GroupParticipant(name: "Ben", key: Secp256k1.PrivateKey(using: rng), pool: pool, rng: rng)
        let dee = GroupParticipant(name: "Dee", key: Secp256k1.PrivateKey(using: rng), pool: pool, rng: rng)
        let eve = GroupParticipant(name: "Eve", key: Secp256k1.PrivateKey(using: rng), pool: pool, rng: rng)
        let processor = InMemoryInviter(inviter: ada.key, consumedTags: InMemoryConsumedTagStore(), rng: rng)

        // 1. Ada creates a group and adds Ben from his KeyPackage.
        var hosted = try HostedGroup.create(creator: ada.key, name: "Book club", relays: pool.urls, rng: rng)
        ada.group = hosted.group
        processor.host(hosted)
        let benKP = try await ben.publishKeyPackage()
        let addBen = try processor.add(benKP, to: hosted.conversationID)
        let benAcks = try await ada.publishRequired(addBen.event)
        for w in try processor.confirmPublished(addBen, acknowledgedBy: benAcks) { try await ada.publishRequired(w) }
        ada.group = processor.group(hosted.conversationID)?.group
        for gift in await ben.catchUpWraps().succeeded {
            if case .welcome = try SealedMessage(gift) {
                ben.group = try MarmotMLSGroup.join(gift: gift, recipient: ben.key, store: ben.keyPackages)
            }
        }
        hosted.group = ada.group!
        record(1, "Create a group", "Ada", ben.group != nil,
               [("group", hosted.nostrGroupID), ("epoch", "\(ada.group!.epoch)"), ("member", ben.pubkey)],
               ["Ada created \"Book club\" (h=\(hosted.nostrGroupID.prefix(16))…) and added Ben: epoch \(ada.group!.epoch), 2 members."])

        // 2. A single-use signed invite, as a URL and a QR code.
        let invite = try SignedInvite.create(conversationID: hosted.conversationID, creator: ada.key,
                                             options: InviteOptions(relays: pool.urls, name: "Book club", expiresAtUnix: UnixTime.now() + 86_400,
                                                                    singleUse: true, tag: hosted.currentTag), using: rng)
        let url = try invite.url()
        var inviteText = ["Invite URL (single use, expires in 24 h):", url]
        if showQR, let qr = try? QRCode(text: url) { inviteText += qr.terminalString().split(separator: "\n").map(String.init) }
        record(2, "Make an invite", "Ada", true, [("tag", hosted.currentTag), ("url", url)], inviteText)

        // 3. Dee sends a join request (KeyPackage + gift-wrapped kind-1080 request).
        var deeClient = JoinClient(key: dee.key, keyPackages: dee.keyPackages, rng: rng)
        guard let outgoing = try? deeClient.start(invite: url, name: "Dee") else {
            record(3, "Send a join request", "Dee", false, [], ["Dee's client refused the invite: \(deeClient.state)"])
            return false
        }
        try await dee.publishRequired(outgoing.keyPackageEvent)
        try await dee.publishRequired(outgoing.joinRequest)
        record(3, "Send a join request", "Dee", true,
               [("key_package", outgoing.keyPackageEvent.id), ("join_request_wrap", outgoing.joinRequest.id), ("tag", outgoing.tag ?? "")],
               ["Dee checked the invite's signature and expiry, published a KeyPackage and sent Ada a gift-wrapped join request."])

        // 4. Ada validates, commits, waits for the relay's OK, and only then releases the Welcome.
        var welcomeIDs = [String]()
        var commitID = ""
        for gift in await ada.catchUpWraps().succeeded {
            guard case .accepted(let pending) = processor.process(gift) else { continue }
            let acks = try await ada.publishRequired(pending.event)
            commitID = pending.event.id
            for w in try processor.confirmPublished(pending, acknowledgedBy: acks) {
                try await ada.publishRequired(w)
                welcomeIDs.append(w.id)
            }
        }
        ada.group = processor.group(hosted.conversationID)?.group
        deeClient.catchUp(await dee.catchUpWraps())
        dee.group = deeClient.group
        var deletionID = ""
        if let used = deeClient.keyPackageEventToDelete {
            let (deletion, result) = try await EventDeletion.delete([used], author: dee.key, reason: "consumed by a Welcome", via: pool)
            if !result.succeeded.isEmpty { deletionID = deletion.id }
        }
        try await ben.syncGroup()
        let joinedOK: Bool = { if case .joined = deeClient.state { return true } else { return false } }()
        let epochs = [ada, ben, dee].compactMap { $0.group?.epoch }
        let fingerprints = Set([ada, ben, dee].compactMap { $0.epochFingerprint })
        record(4, "Commit and Welcome", "Ada", joinedOK && fingerprints.count == 1,
               [("commit", commitID), ("welcome_wrap", welcomeIDs.first ?? ""), ("epoch", "\(epochs.first ?? 0)"), ("key_package_deletion", deletionID)],
               ["Ada's Commit was stored by \(pool.urls.count) relay(s) before the Welcome went out.",
                "Dee deleted her used KeyPackage with a NIP-09 request (\(deletionID.prefix(16))…).",
                "Dee: \(deeClient.state). Ada, Ben and Dee share epoch \(epochs.first ?? 0): \(fingerprints.count == 1 ? "one" : "DIFFERENT") epoch secret."])

        // 5. Messages.
        let m1 = try await dee.send("Hi all, thanks for the invite!")
        let m2 = try await ben.send("Welcome, Dee 👋")
        var lines = [String]()
        var readers = 0
        for p in [ada, ben, dee] {
            for o in try await p.syncGroup() {
                if case .message(let inner, _) = o {
                    readers += 1
                    lines.append("\(p.name) read from \(name(of: inner.pubkey, in: [ada, ben, dee])): \(inner.content)")
                }
            }
        }
        record(5, "Exchange messages", "Dee, Ben", readers == 4, [("message_dee", m1.id), ("message_ben", m2.id)], lines)

        // 6. Eve tries the same single-use invite: one reply, with a user-facing message.
        var eveClient = JoinClient(key: eve.key, keyPackages: eve.keyPackages, rng: rng)
        var failure = "no reply"
        if let out = try? eveClient.start(invite: url, name: "Eve") {
            try await eve.publishRequired(out.keyPackageEvent)
            try await eve.publishRequired(out.joinRequest)
            for gift in await ada.catchUpWraps().succeeded {
                if case .rejected(let reply, _) = processor.process(gift) { try await ada.publishRequired(reply) }
            }
            eveClient.catchUp(await eve.catchUpWraps())
            if case .joinFailed(_, let error) = eveClient.state { failure = error.message }
        }
        record(6, "A failed join", "Eve", failure == "This invite was already used", [("tag", hosted.currentTag)],
               ["Eve used the same single-use invite. Eve sees: \"\(failure)\""])

        // 7. Ada removes Ben; Ben can no longer read the group.
        ada.group = processor.group(hosted.conversationID)?.group
        let removal = try ada.group!.commit(removing: [ben.key.publicKey.rawRepresentation], rng: rng)
        let acks = try await ada.publishRequired(removal.event)
        _ = try ada.group!.confirmPublished(removal, acknowledgedBy: acks)
        processor.update(hosted.conversationID, group: ada.group!)
        let benOutcomes = try await ben.syncGroup()
        try await dee.syncGroup()
        let after = try await ada.send("Ben has left the book club.")
        let benReads = try await ben.syncGroup().contains { if case .message = $0 { return true } else { return false } }
        let deeReads = try await dee.syncGroup().contains { if case .message = $0 { return true } else { return false } }
        let benRemoved = benOutcomes.contains { if case .removed = $0 { return true } else { return false } }
        record(7, "Remove a member", "Ada", benRemoved && !benReads && deeReads,
               [("commit", removal.event.id), ("message", after.id), ("epoch", "\(ada.group!.epoch)")],
               ["Ada removed Ben (epoch \(ada.group!.epoch)). Ben \(benRemoved ? "learned he was removed" : "did NOT see the removal")",
                "and \(benReads ? "CAN STILL READ" : "cannot read") the next message; Dee \(deeReads ? "reads it" : "does NOT read it")."])
        return allOK
    }

    static func name(of pubkey: String, in people: [GroupParticipant]) -> String {
        people.first { $0.pubkey == pubkey }?.name ?? String(pubkey.prefix(8))
    }
}
