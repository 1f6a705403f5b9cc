import ArgumentParser
import InviteKit

struct NIP44Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nip44", abstract: "NIP-44 v2 encryption (stdin → stdout).",
        subcommands: [Encrypt.self, Decrypt.self])

    struct KeyOptions: ParsableArguments {
        @Option(name: .customLong("secret-key"), help: "Your secret key (hex or nsec).") var secretKey: String
        @Option(name: .customLong("public-key"), help: "The peer's public key (hex or npub).") var publicKey: String

        func conversationKey() throws -> NIP44.ConversationKey {
            try NIP44.ConversationKey(privateKey: NostrKeys.parseSecretKey(secretKey), publicKey: NostrKeys.parsePublicKey(publicKey))
        }
    }

    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Plaintext bytes on stdin; payload on stdout.")
        @OptionGroup var keys: KeyOptions
        func run() throws {
            try runReportingErrors {
                let ck = try keys.conversationKey()
                StdIO.printLine(try NIP44.encrypt(try StdIO.readAll(), conversationKey: ck))
            }
        }
    }

    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Payload on stdin; plaintext bytes on stdout.")
        @OptionGroup var keys: KeyOptions
        func run() throws {
            try runReportingErrors {
                let ck = try keys.conversationKey()
                let input = String(decoding: try StdIO.readAll(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                StdIO.write(try NIP44.decrypt(input, conversationKey: ck))
            }
        }
    }
}
