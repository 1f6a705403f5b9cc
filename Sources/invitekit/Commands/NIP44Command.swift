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
                StdIO.write(try NIP44.decrypt(NIP44.payloadText(try StdIO.readAll()), conversationKey: ck))
            }
        }
    }
}
