import InviteKit

/// Readable one-line text for library errors.
enum CLIMessages {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let e as NostrError: return "\(e.detail) [\(e.code.rawValue)]"
        case let e as CryptoError: return "\(e.detail) [\(e.code.rawValue)]"
        case let e as JSONError: return "invalid JSON: \(e.description)"
        default: return String(describing: error).split(separator: "\n").first.map(String.init) ?? "error"
        }
    }
}
