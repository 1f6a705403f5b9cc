import InviteKit

/// Readable one-line text for library errors: `<detail> [<code>]`.
enum CLIMessages {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let e as CodedError: return e.detail.isEmpty ? e.codeName : "\(e.detail) [\(e.codeName)]"
        case let e as JSONError: return "invalid JSON: \(e.description)"
        case let e as InviteKitError: return "\(e.message) [\(e.code.rawValue)]"
        default: return String(describing: error).split(separator: "\n").first.map(String.init) ?? "error"
        }
    }
}
