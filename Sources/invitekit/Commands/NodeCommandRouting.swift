import Foundation

/// Sends `invitekit group …` and `invitekit invite …` to the node commands when they name a
/// node's group (`--group ID`) or use a node-only subcommand; everything else (`--state FILE`,
/// stateless invites) reaches the original commands unchanged.
enum NodeCommandRouting {
    static let nodeGroupOnly: Set<String> = ["new", "list", "members", "read"]
    static let nodeInviteOnly: Set<String> = ["revoke", "requests", "approve", "decline"]

    static func route(_ args: [String]) -> [String] {
        guard args.count >= 2 else { return args }
        let names = args.dropFirst(2)
        let hasGroup = names.contains("--group") || names.contains { $0.hasPrefix("--group=") }
        let hasState = names.contains("--state") || names.contains { $0.hasPrefix("--state=") }
        switch args[0] {
        case "group" where nodeGroupOnly.contains(args[1]) || (hasGroup && !hasState):
            return ["node-group"] + args.dropFirst()
        case "invite" where nodeInviteOnly.contains(args[1]) || (args[1] == "create" && hasGroup):
            return ["node-invite"] + args.dropFirst()
        default:
            return args
        }
    }
}
