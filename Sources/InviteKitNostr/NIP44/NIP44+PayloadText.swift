extension NIP44 {
    /// A payload as read from a file or stdin, without surrounding ASCII whitespace. Trimmed as
    /// bytes: Foundation's `trimmingCharacters` bridged the whole payload through UTF-16 and was
    /// 70 % of the time `nip44 decrypt` took for 16 MiB (issue 13; the `nip44.decrypt.16MiB.cli`
    /// bench case times this path). Here, not in the CLI, so the bench target times the same code.
    package static func payloadText(_ bytes: [UInt8]) -> String {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
