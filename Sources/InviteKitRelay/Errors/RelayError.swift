import InviteKitCrypto

/// A failure in the relay layer. `code` is stable; `detail` never holds secret material.
public typealias RelayError = CodedFailure<RelayErrorCodes.Code>

/// The namespace of ``RelayError``'s codes.
public enum RelayErrorCodes {
    public enum Code: String, FailureCode {
        /// A relay message was not a JSON array of the shape NIP-01 gives it.
        case malformedMessage = "relay_malformed_message"
        /// A relay message's first element is not a type this client knows.
        case unknownMessageType = "relay_unknown_message_type"
        /// An event sent by a relay failed parsing, its id/signature check, or the filter it was sent for.
        case invalidEvent = "relay_invalid_event"
        /// A filter could not be parsed or encoded.
        case invalidFilter = "relay_invalid_filter"
        /// The relay URL is not `ws://` or `wss://` with a host.
        case invalidURL = "relay_invalid_url"
        /// The WebSocket could not be opened.
        case connectionFailed = "relay_connection_failed"
        /// The client was closed by its owner; no more work is accepted.
        case clientClosed = "relay_client_closed"
        /// The relay answered `OK false` (see ``OKMessage``).
        case rejected = "relay_rejected"
        /// No `OK` arrived in time (event queued while offline, or sent with no answer).
        case timedOut = "relay_timed_out"
        /// The relay ended a subscription with `CLOSED`.
        case subscriptionClosed = "relay_subscription_closed"
        /// Not a single relay of a pool accepted an event that gates another.
        case noRelayAccepted = "relay_no_relay_accepted"
    }
}
