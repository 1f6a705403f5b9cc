import ArgumentParser

@main
struct InviteKitCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invitekit",
        abstract: "Cryptographic group invites over Nostr: keys, NIP-44, gift wraps, invites, key packages, groups.",
        version: InviteKitVersion.string,
        subcommands: CommandRegistry.all
    )
}

enum InviteKitVersion {
    static let string = "0.1.0"
}
