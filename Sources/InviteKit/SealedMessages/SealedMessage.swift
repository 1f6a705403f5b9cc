import Foundation
import InviteKitNostr

/// What an opened gift wrap holds, typed by its rumor kind.
public enum SealedMessage: Sendable {
    /// An MLS Welcome rumor (kind 444); the group layer processes it.
    case welcome(NostrEvent)
    case joinRequest(WhistleJoinRequest)
    case inviteJoinError(InviteJoinError)
    /// Any other kind, passed through untouched.
    case other(NostrEvent)

    /// Types an unwrapped gift, checking that what the payload claims matches who sent it.
    /// Throws `InviteKitError` (its `underlyingCode` is the ``SealedMessageError`` code).
    public init(_ gift: UnwrappedGift) throws(InviteKitError) {
        do { try self.init(layerGift: gift) } catch { throw InviteKitError.from(error) }
    }

    /// ``init(_:)`` with the layer's own error, for the package's vector suites.
    package init(layerGift gift: UnwrappedGift) throws(SealedMessageError) {
        let rumor = gift.rumor
        switch SealedMessageKind(rawValue: rumor.kind) {
        case .welcome:
            self = .welcome(rumor)
        case .joinRequest:
            let request = try WhistleJoinRequest(layerJSON: Array(rumor.content.utf8))
            guard request.pubkey == gift.sender.hex else {
                throw SealedMessageError(.senderMismatch, "join request names another pubkey than its sender")
            }
            guard request.keyPackage.pubkey == gift.sender.hex else {
                throw SealedMessageError(.senderMismatch, "key package belongs to another key than the sender")
            }
            self = .joinRequest(request)
        case .inviteJoinError:
            guard let typeText = rumor.firstTagValue(SealedMessageKind.contentTypeTag) else {
                throw SealedMessageError(.missingContentType, "no content-type tag")
            }
            guard let type = try? ContentTypeID(parsing: typeText), type.isCompatible(with: .inviteJoinError) else {
                throw SealedMessageError(.malformed, "content type \(typeText) is not invite_join_error:1.x")
            }
            do {
                self = .inviteJoinError(try InviteJoinErrorCodec.parse(Array(rumor.content.utf8)))
            } catch { throw SealedMessageError(.malformed, error.description) }
        case nil:
            self = .other(rumor)
        }
    }
}

extension InviteJoinError {
    /// The kind-1081 rumor template that carries this error.
    public func rumorTemplate(now: Int64 = UnixTime.now()) -> EventTemplate {
        EventTemplate(kind: SealedMessageKind.inviteJoinError.rawValue,
                      content: String(decoding: InviteJoinErrorCodec.json(self), as: UTF8.self),
                      tags: [[SealedMessageKind.contentTypeTag, ContentTypeID.inviteJoinError.description]],
                      createdAt: now)
    }
}

extension WhistleJoinRequest {
    /// The kind-1080 rumor template that carries this request.
    public func rumorTemplate(now: Int64 = UnixTime.now()) -> EventTemplate {
        EventTemplate(kind: SealedMessageKind.joinRequest.rawValue, content: String(decoding: json, as: UTF8.self), tags: [], createdAt: now)
    }
}
