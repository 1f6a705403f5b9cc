import InviteKitCrypto

/// Why a JSON text was refused: a ``NostrError`` with a `json_*` code (the module's one error
/// type); the detail names the byte where the parser stopped.
public typealias JSONError = NostrError

extension CodedFailure where C == NostrErrorCodes.Code {
    /// A failure at byte `offset` of the input.
    init(code: C, offset: Int) { self.init(code, "at byte \(offset)") }
}
