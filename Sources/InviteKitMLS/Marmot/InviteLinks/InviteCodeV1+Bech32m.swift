import InviteKitCrypto
import InviteKitNostr

extension InviteCodeV1 {
    /// The Bech32m prefix.
    public static let humanReadablePart = "marmot"
    /// The longest accepted code text, checked before anything is allocated or decoded
    /// (`nostr-invite-links.md` "Long code"; PROTOCOL §5.14.3).
    public static let maxTextLength = 7000

    /// The lowercase `marmot1…` text: Bech32m (BIP-350) of ``encoded``, zero padding bits.
    public var bech32m: String { Self.bech32m(of: encoded) }

    /// Bech32m text of raw code bytes, without reading them (for fixtures and transports).
    public static func bech32m(of bytes: [UInt8]) -> String {
        Bech32.encode(hrp: humanReadablePart, data: bytes, variant: .bech32m)
    }

    /// Reads a `marmot1…` code (`invalid_invite_code`): at most 7000 characters, all lowercase or
    /// all uppercase, prefix `marmot`, a Bech32m (not Bech32) checksum, zero and not excess
    /// padding bits, then canonical ``init(decoding:)`` bytes. Never passed to a NIP-19 decoder.
    public init(bech32m text: String) throws {
        try self.init(decoding: try Self.bytes(ofBech32m: text))
    }

    /// The binary bytes of `marmot1…` text, checked as text only.
    public static func bytes(ofBech32m text: String) throws -> [UInt8] {
        let decoded: (hrp: String, data: [UInt8])
        do {
            decoded = try Bech32.decode(text, variant: .bech32m, maxLength: maxTextLength)
        } catch {
            throw MLSError(.invalidInviteCode, "not a Bech32m code: \(error.detail)")
        }
        guard decoded.hrp == humanReadablePart else { throw MLSError(.invalidInviteCode, "prefix is not \(humanReadablePart)") }
        return decoded.data
    }
}
