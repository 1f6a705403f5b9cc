/// Removes anything that could be a secret key from text that echoes the command line
/// (argument-parser errors quote the offending value).
enum SecretRedaction {
    static func redact(_ text: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            out += looksSecret(word) ? "<redacted>" : word
            word = ""
        }
        for c in text {
            if c.isLetter || c.isNumber { word.append(c) } else { flush(); out.append(c) }
        }
        flush()
        return out
    }

    static func looksSecret(_ w: String) -> Bool {
        if w.lowercased().hasPrefix("nsec1") { return true }
        return w.utf8.count == 64 && w.utf8.allSatisfy { $0 < 128 && Character(Unicode.Scalar($0)).isHexDigit }
    }
}
