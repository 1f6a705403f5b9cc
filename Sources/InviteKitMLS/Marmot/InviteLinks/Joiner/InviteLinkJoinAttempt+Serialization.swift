import InviteKitCrypto

extension InviteLinkJoinAttempt {
    /// Version 1 of an attempt's stored form (PROTOCOL §5.14.16), sealed because it holds the
    /// bearer and the consent key: everything the requester must retain to reproduce its join
    /// after a restart (`features/group-invite-links.md` "Retention, capacity and restart").
    static let envelope = VersionedEnvelope("invite link join attempt", version: 1)

    /// The attempt as zeroizing bytes: the consent key, the preview seen at consent, the
    /// revision chain, the withdrawn flag, every notice and the matched Welcome.
    public func serialized() -> SecureBytes {
        Self.envelope.seal(capacity: 2048) { w in
            consentKey.rawRepresentation.withUnsafeBytes { w.writeBytes($0) }
            w.writeOpaque(previewAtConsent.encoded)
            w.writeVector { v in for r in requests { v.writeOpaque(r.encoded) } }
            w.writeUInt8(withdrawn ? 1 : 0)
            w.writeVector { v in for n in notices { v.writeBytes(n.author); v.writeBytes(n.status.encoded) } }
            if let welcome {
                w.writeUInt8(1); w.writeBytes(welcome.hash); w.writeBytes(welcome.inviter); w.writeOpaque(welcome.groupID)
                w.writeBytes(welcome.keyPackageRef)
            } else {
                w.writeUInt8(0)
            }
        }
    }

    /// Reads ``serialized()``: every record is decoded and checked again, the chain (which carries
    /// the bearer) must be revisions `0…n` (at most eight) of one context signed by the stored consent key, and the
    /// preview must be the one the context's code named (`invalid_value` otherwise).
    public init(serialized data: SecureBytes) throws {
        self = try Self.envelope.open(data) { _, r in
            let consentKey = try Ed25519.PrivateKey(rawRepresentation: try r.readBytes(32))
            let preview = try InvitePreviewV1(decoding: try r.readOpaque())
            let requests = try r.readVector { try InviteRequestV1(decoding: try $0.readOpaque()) }
            guard let first = requests.first, requests.count <= Int(InviteRequestTBSV1.maxRevision) + 1,
                  requests.enumerated().allSatisfy({ Int($0.element.tbs.revision) == $0.offset && $0.element.tbs.context == first.tbs.context }),
                  first.tbs.context.consentKey == consentKey.publicKey,
                  preview.inboxPublicKey == first.tbs.context.inboxPublicKey, preview.linkID == first.tbs.context.linkID,
                  ConstantTime.equals(preview.bearerHash, first.tbs.bearerHash),
                  requests.allSatisfy({ $0.tbs.bearer.constantTimeEquals(first.tbs.bearer) }) else {
                throw MLSError(.invalidValue, "invite link join attempt's records do not form one chain of its context")
            }
            var attempt = InviteLinkJoinAttempt(context: first.tbs.context, previewAtConsent: preview, requests: requests, bearer: first.tbs.bearer,
                                                consentKey: consentKey)
            switch try r.readUInt8() {
            case 0: break
            case 1: attempt.withdrawn = true
            case let b: throw MLSError(.invalidValue, "invite link join attempt's withdrawn flag \(b)")
            }
            attempt.notices = try r.readVector {
                Notice(author: try $0.readBytes(32), status: try InviteStatusV1(decoding: try $0.readBytes(InviteStatusV1.byteCount)))
            }
            switch try r.readUInt8() {
            case 0: break
            case 1: attempt.welcome = (try r.readBytes(32), try r.readBytes(32), try r.readOpaque(), try r.readBytes(32))
            case let b: throw MLSError(.invalidValue, "invite link join attempt's welcome flag \(b)")
            }
            return attempt
        }
    }
}
