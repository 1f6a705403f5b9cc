/// Makes untrusted text safe to print in text mode: every C0 control, DEL, C1 control, bidi
/// override or isolate and line/paragraph separator becomes a visible escape (`\n`, `\u{1B}`,
/// `\u{202E}`), and a backslash becomes `\\`, so an escape in the output always means the
/// input held that character. Nothing an invite, event or relay sends can move the cursor,
/// hide text, start a new line or reorder what follows it. `--json` output is escaped by the
/// JSON writer instead.
enum TerminalText {
    static func escape(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: needsEscape) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(u) {
                    out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F: return true              // C0, DEL, C1
        case 0x5C: return true                                    // backslash, so escapes stay unambiguous
        case 0x061C, 0x200E, 0x200F: return true                 // ALM, LRM, RLM
        case 0x202A...0x202E, 0x2066...0x2069: return true       // embeddings, overrides, isolates
        case 0x2028, 0x2029: return true                         // line and paragraph separators
        default: return false
        }
    }
}
