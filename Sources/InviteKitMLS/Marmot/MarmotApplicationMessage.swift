import InviteKitCrypto
import InviteKitNostr

/// The application data of a Marmot MLS application message (MIP-03): the UTF-8 JSON of an
/// unsigned Nostr event (a rumor: `id`, `pubkey`, `created_at`, `kind`, `tags`, `content`, no
/// `sig`). Any kind is carried (chat is kind 9, reactions kind 7, ...). The rumor's `pubkey` must be
/// the MLS sender's credential identity, so members cannot speak for each other.
package enum MarmotApplicationMessage {
    /// The bytes to hand to the MLS layer as application data. Refuses a signed event (a leaked
    /// signature would make the message provable outside the group) and a wrong id.
    package static func encode(_ rumor: NostrEvent) throws -> [UInt8] {
        guard rumor.sig == nil else { throw MLSError(.invalidValue, "an application message is an unsigned rumor") }
        do { try rumor.verifyId() } catch { throw MLSError(.invalidValue, "rumor id does not match its fields") }
        return rumor.jsonBytes
    }

    /// Builds the rumor for `content` authored by `sender` and returns it with its bytes.
    public static func make(kind: Int = MarmotProfile.chatMessageKind, content: String, tags: [[String]] = [], sender: Secp256k1.XOnlyPublicKey,
                            createdAt: Int64 = UnixTime.now()) throws -> (rumor: NostrEvent, bytes: [UInt8]) {
        let rumor = EventTemplate(kind: kind, content: content, tags: tags, createdAt: createdAt).rumor(pubkey: sender)
        return (rumor, try encode(rumor))
    }

    /// The members of an app event (`application-messages.md`, "Shape"); `sig` is refused apart,
    /// with its own message.
    static let members: Set<String> = ["id", "pubkey", "created_at", "kind", "tags", "content"]

    /// Reads application data from the member whose credential identity is `senderIdentity`
    /// (32 bytes). Refuses non-JSON, a signed event, a wrong id, and a `pubkey` other than the sender's
    /// (MDK: "author mismatch").
    package static func decode(_ bytes: [UInt8], senderIdentity: [UInt8]) throws -> NostrEvent {
        let rumor: NostrEvent
        do {
            // `application-messages.md` ("Encoding"): exactly the six members, no others, no
            // duplicate (the parser refuses duplicates), so two readers cannot see two events.
            let value = try JSONParser.parse(bytes, maxBytes: NostrEvent.defaultMaxJSONBytes, maxDepth: 4)
            guard let object = value.objectValue, object.allSatisfy({ Self.members.contains($0.key) || $0.key == "sig" }) else {
                throw MLSError(.invalidValue, "application data has a member other than \(Self.members.sorted())")
            }
            rumor = try NostrEvent(jsonValue: value, requireSignature: false)
        } catch let e as MLSError {
            throw e
        } catch {
            throw MLSError(.invalidValue, "application data is not an unsigned Nostr event")
        }
        guard rumor.sig == nil else { throw MLSError(.invalidValue, "application message carries a signature") }
        do { try rumor.verifyId() } catch { throw MLSError(.invalidValue, "rumor id does not match its fields") }
        guard senderIdentity.count == 32, rumor.pubkey == Hex.encode(senderIdentity) else {
            throw MLSError(.credentialMismatch, "rumor pubkey is not the MLS sender's identity")
        }
        return rumor
    }
}
