import InviteKitNostr

/// A client→relay message ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md),
/// [NIP-42](https://github.com/nostr-protocol/nips/blob/master/42.md) for `AUTH`).
package enum ClientMessage: Sendable, Hashable {
    case event(NostrEvent)
    case req(subscriptionId: String, filters: [NostrFilter])
    case close(subscriptionId: String)
    case auth(NostrEvent)

    /// The compact JSON text sent as one WebSocket text frame.
    package var jsonBytes: [UInt8] {
        var w = JSONWriter(capacity: 256)
        switch self {
        case .event(let e):
            w.raw("[\"EVENT\",")
            var bytes = w.bytes
            bytes.append(contentsOf: e.jsonBytes)
            bytes.append(UInt8(ascii: "]"))
            return bytes
        case .auth(let e):
            w.raw("[\"AUTH\",")
            var bytes = w.bytes
            bytes.append(contentsOf: e.jsonBytes)
            bytes.append(UInt8(ascii: "]"))
            return bytes
        case .req(let id, let filters):
            w.raw("[\"REQ\",")
            w.quoted(id)
            for f in filters {
                w.raw(",")
                w.value(f.jsonValue)
            }
            w.raw("]")
        case .close(let id):
            w.raw("[\"CLOSE\",")
            w.quoted(id)
            w.raw("]")
        }
        return w.bytes
    }

    package var jsonString: String { String(decoding: jsonBytes, as: UTF8.self) }
}
