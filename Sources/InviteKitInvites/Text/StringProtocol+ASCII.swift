/// ASCII-only helpers for URL parsing: only ASCII whitespace is trimmed, never Unicode spaces
/// that could hide inside a code.
extension StringProtocol {
    func trimmingASCIIWhitespace() -> Substring {
        let s = self[...]
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" }
        guard let start = s.firstIndex(where: { !isSpace($0) }) else { return Substring() }
        let end = s.lastIndex(where: { !isSpace($0) })!
        return Substring(s[start...end])
    }

    func replacingSpaces(with c: Character) -> String {
        String(self.map { $0 == " " ? c : $0 })
    }
}
