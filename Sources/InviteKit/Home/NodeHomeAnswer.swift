import Foundation

/// The `<id>.done` file of the inbox: the answer's text, or `error: ` and the error as
/// `<message>[: <context>] [<code>[ (<underlying code>)]]`, which ``decode(_:)`` turns back into
/// the ``InviteKitError`` the serving node threw.
enum NodeHomeAnswer {
    static func encode(_ result: Result<String, InviteKitError>) -> [UInt8] {
        switch result {
        case .success(let answer): return Array(answer.utf8)
        case .failure(let e): return Array("error: \(e.message)\(e.context.map { ": " + $0 } ?? "") [\(e.description)]".utf8)
        }
    }

    static func decode(_ data: [UInt8]) throws(InviteKitError) -> String {
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("error: ") else { return text }
        throw error(String(text.dropFirst(7)))
    }

    /// The error an `error: ` answer names; an answer written by an older serve (free text) is
    /// `unknown` with the text as its context.
    static func error(_ text: String) -> InviteKitError {
        guard text.hasSuffix("]"), let open = text.range(of: " [", options: .backwards) else {
            return InviteKitError(.unknown, context: text)
        }
        let tag = text[open.upperBound..<text.index(before: text.endIndex)]
        let head = String(text[..<open.lowerBound])
        let codeText = tag.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        guard let code = InviteKitError.Code(rawValue: codeText) else { return InviteKitError(.unknown, context: text) }
        var underlying: String?
        if let u = tag.range(of: " ("), tag.hasSuffix(")") { underlying = String(tag[u.upperBound..<tag.index(before: tag.endIndex)]) }
        var context: String?
        if head.hasPrefix(code.message + ": ") { context = String(head.dropFirst(code.message.count + 2)) }
        return InviteKitError(code, underlyingCode: underlying, context: context)
    }
}
