import InviteKitCrypto

extension InviteCode {
    /// The one rule for a Whistle code's fields, applied by the builder
    /// (``init(checkedRelay:inviter:groupId:)``) and by `invite verify`: the relay is a `ws://` or
    /// `wss://` URL (``RelayURLCheck``), the group id is not empty, the npub names a key.
    /// Returns what is wrong, or `nil`.
    public var fieldProblem: String? {
        if !RelayURLCheck.isValid(relay) { return "relay must be a ws:// or wss:// URL of at most \(RelayURLCheck.maxLength) bytes" }
        if groupId.isEmpty { return "group id is empty" }
        if !Self.isValidNpub(inviterNpub) { return "inviterNpub is not a valid npub" }
        return nil
    }

    /// Builds a code that ``init(code:)`` and ``init(url:)`` read back: refuses fields that
    /// break ``fieldProblem`` (`invalid_argument`) and a code longer than ``maxInputLength``
    /// bytes, the reader's limit (`input_too_large`), instead of producing one nobody can open.
    public init(checkedRelay relay: String, inviter: Secp256k1.XOnlyPublicKey, groupId: String) throws(InviteError) {
        self.init(relay: relay, inviter: inviter, groupId: groupId)
        if let problem = fieldProblem { throw InviteError(.invalidArgument, problem) }
        let length = code.utf8.count
        guard length <= Self.maxInputLength else {
            throw InviteError(.inputTooLarge, "the code would be \(length) bytes; readers accept at most \(Self.maxInputLength) (InviteCode.maxInputLength)")
        }
    }
}
