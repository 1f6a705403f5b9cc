extension QRCode {
    /// The symbol as text, two module rows per line with Unicode half blocks (`▀ ▄ █`), and a
    /// `quietZone` of light modules around it (the standard asks for 4).
    ///
    /// By default light modules are drawn as ink, for the usual light-on-dark terminal, so the
    /// code appears dark-on-light on screen; pass `invert: true` on a light background.
    public func terminalString(quietZone: Int = 2, invert: Bool = false) -> String {
        let full = size + 2 * quietZone
        func ink(_ x: Int, _ y: Int) -> Bool {
            let dark = isDark(x: x - quietZone, y: y - quietZone)
            return invert ? dark : !dark
        }
        var out = ""
        var y = 0
        while y < full {
            for x in 0..<full {
                let top = ink(x, y)
                let bottom = y + 1 < full ? ink(x, y + 1) : false
                switch (top, bottom) {
                case (true, true): out += "█"
                case (true, false): out += "▀"
                case (false, true): out += "▄"
                case (false, false): out += " "
                }
            }
            out += "\n"
            y += 2
        }
        return out
    }
}
