import ArgumentParser
import InviteKit

/// `invitekit id`: the node's npub, default relays and number of groups (works while `serve` runs).
struct NodeIDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "id", abstract: "Print this node's npub, relays and number of groups.")
    @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).", transform: PathOption.parse) var home: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try runReportingErrors {
            let home = StoreHome.resolve(home)
            try home.requireIntact()
            let summary = try InviteKitNode.summary(home: home)
            if json {
                var o = JSONOutput()
                o.add("npub", summary.npub)
                o.add("relays", json: .array(summary.relays.map { .string($0) }))
                o.add("groups", summary.groups)
                StdIO.printLine(o.string)
            } else {
                StdIO.printLine("npub    \(summary.npub)")
                StdIO.printLine("relays  \(TerminalText.escape(summary.relays.joined(separator: " ")))")
                StdIO.printLine("groups  \(summary.groups)")
            }
        }
    }
}
