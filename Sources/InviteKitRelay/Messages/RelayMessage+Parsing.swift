import InviteKitCrypto
import InviteKitNostr

extension RelayMessage {
    /// Largest relay message accepted: an event at ``NostrEvent/defaultMaxJSONBytes`` plus framing.
    package static let maxMessageBytes = NostrEvent.defaultMaxJSONBytes + 64 * 1024

    /// Parses one relay message. Every way it can be wrong is a typed ``RelayError``:
    /// `malformedMessage` (not JSON, wrong arity or element types), `unknownMessageType`,
    /// `invalidEvent` (the embedded event fails ``NostrEvent/init(jsonValue:requireSignature:)``).
    package init<B: ContiguousBytes>(json: B) throws(RelayError) {
        let value: JSONValue
        do { value = try JSONParser.parse(json, maxBytes: Self.maxMessageBytes, maxDepth: 8) } catch {
            throw RelayError(.malformedMessage, "not JSON: \(error.description)")
        }
        guard let items = value.arrayValue, let type = items.first?.stringValue else {
            throw RelayError(.malformedMessage, "a relay message is a JSON array starting with a string")
        }
        func string(_ i: Int, _ what: String) throws(RelayError) -> String {
            guard i < items.count, let s = items[i].stringValue else {
                throw RelayError(.malformedMessage, "\(type): element \(i) (\(what)) must be a string")
            }
            return s
        }
        func arity(_ range: ClosedRange<Int>) throws(RelayError) {
            guard range.contains(items.count) else {
                throw RelayError(.malformedMessage, "\(type) has \(items.count) elements; expected \(range.lowerBound)…\(range.upperBound)")
            }
        }
        switch type {
        case "EVENT":
            try arity(3...3)
            let sub = try string(1, "subscription id")
            do {
                self = .event(subscriptionId: sub, event: try NostrEvent(jsonValue: items[2], requireSignature: true))
            } catch {
                throw RelayError(.invalidEvent, "EVENT for \(sub): \(error.description)")
            }
        case "OK":
            // NIP-01 makes the message mandatory; tolerate its absence (older relays) as "".
            try arity(3...4)
            let id = try string(1, "event id")
            guard let ok = items[2].boolValue else { throw RelayError(.malformedMessage, "OK: element 2 must be a boolean") }
            let message = items.count == 4 ? try string(3, "message") : ""
            self = .ok(OKMessage(eventId: id, accepted: ok, message: message))
        case "EOSE":
            try arity(2...2)
            self = .eose(subscriptionId: try string(1, "subscription id"))
        case "CLOSED":
            try arity(2...3)
            let sub = try string(1, "subscription id")
            self = .closed(subscriptionId: sub, message: items.count == 3 ? try string(2, "message") : "")
        case "NOTICE":
            try arity(2...2)
            self = .notice(try string(1, "message"))
        case "AUTH":
            try arity(2...2)
            self = .auth(challenge: try string(1, "challenge"))
        default:
            throw RelayError(.unknownMessageType, "unknown relay message type \"\(type.prefix(32))\"")
        }
    }

    package init(json: String) throws(RelayError) {
        try self.init(json: Array(json.utf8))
    }
}
