import InviteKitNostr

/// A relay→client message ([NIP-01](https://github.com/nostr-protocol/nips/blob/master/01.md),
/// [NIP-42](https://github.com/nostr-protocol/nips/blob/master/42.md) for `AUTH`).
package enum RelayMessage: Sendable, Hashable {
    /// `["EVENT", <subscription id>, <event>]`. The event is shape-checked only; the client verifies it.
    case event(subscriptionId: String, event: NostrEvent)
    case ok(OKMessage)
    /// `["EOSE", <subscription id>]`: stored events are done, live ones follow.
    case eose(subscriptionId: String)
    /// `["CLOSED", <subscription id>, <message>]`: the relay ended the subscription.
    case closed(subscriptionId: String, message: String)
    case notice(String)
    /// `["AUTH", <challenge>]`.
    case auth(challenge: String)
}
