import ArgumentParser
import InviteKit

struct NIP44Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nip44", abstract: "NIP-44 v2 encryption (stdin → stdout).",
        subcommands: [Encrypt.self, Decrypt.self])

    struct KeyOptions: ParsableArguments {
        @OptionGroup var secret: SecretKeyInput
        @Option(name: .customLong("public-key"), help: "The peer's public key (hex or npub).") var publicKey: String

        func conversationKey() throws -> NIP44.ConversationKey {
            try NIP44.ConversationKey(privateKey: secret.resolve(stdinIsInput: true), publicKey: NostrKeys.parsePublicKey(publicKey))
        }
    }

    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "encrypt", abstract: "Plaintext bytes on stdin; payload on stdout.")
        @OptionGroup var keys: KeyOptions
        func run() throws {
            try runReportingErrors {
                let ck = try keys.conversationKey()
                StdIO.printLine(try NIP44.encrypt(try StdIO.readAll(), conversationKey: ck))
            }
        }
    }

    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "decrypt", abstract: "Payload on stdin; plaintext bytes on stdout.")
        @OptionGroup var keys: KeyOptions
        func run() throws {
            try runReportingErrors {
                let ck = try keys.conversationKey()
                StdIO.write(try NIP44.decrypt(payloadText(try StdIO.readAll()), conversationKey: ck))
            }
        }
    }

    /// The payload on stdin without surrounding ASCII whitespace. Trimmed as bytes: Foundation's
    /// `trimmingCharacters` bridged the whole payload through UTF-16 and was 70 % of the time
    /// `nip44 decrypt` took for 16 MiB (issue 13; see the `nip44.cli.decrypt.16MiB` bench case).
    static func payloadText(_ bytes: [UInt8]) -> String {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
