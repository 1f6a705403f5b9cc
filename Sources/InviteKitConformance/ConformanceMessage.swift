import InviteKitNostr

/// One object on the in-memory transport: a kind-445 group event or a Welcome rumor addressed to
/// one client. `publication` and `action` are the scenario's labels, for fault selectors.
struct ConformanceMessage: Sendable {
    enum Payload: Sendable {
        case group(NostrEvent)
        /// A kind-444 rumor and the KeyPackage event it answers; the group label it joins.
        case welcome(rumor: NostrEvent, recipient: String, group: String)
    }

    /// The message's class in the scenario IR's selector vocabulary.
    enum Class: String, Sendable {
        case commit, proposal, application, welcome
    }

    let serial: Int
    let sender: String
    let payload: Payload
    let messageClass: Class
    let publication: String?
    let action: String

    /// `message_selector` of the scenario IR: every given field must match.
    func matches(_ selector: [String: Any]) -> Bool {
        if let a = selector["action_id"] as? String, a != action { return false }
        if let p = selector["publication"] as? String, p != publication { return false }
        if let s = selector["sender"] as? String, s != sender { return false }
        if let c = selector["class"] as? String {
            if c == "group_message" { if messageClass == .welcome { return false } } else if c != messageClass.rawValue { return false }
        }
        return true
    }
}
