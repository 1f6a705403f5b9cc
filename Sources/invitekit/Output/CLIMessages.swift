import InviteKit

/// Readable one-line text for library errors: `<detail> [<code>]` (an `InviteKitError` adds
/// its underlying code). Every library error is a
/// `CodedError` (each layer's `CodedFailure`, `JSONError` included, and `InviteKitError`).
enum CLIMessages {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let e as InviteKitError:
            // The layer's code says which rule refused (e.g. `not_permitted (not_a_member)`).
            return "\(e.message)\(e.context.map { ": " + TerminalText.escape($0) } ?? "") [\(e.description)]"
        case let e as CodedError: return e.detail.isEmpty ? e.codeName : "\(e.detail) [\(e.codeName)]"
        default: return String(describing: error).split(separator: "\n").first.map(String.init) ?? "error"
        }
    }
}
