import ArgumentParser
import InviteKit
import InviteKitDemo

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "The whole story in one process: group, invite (URL + QR), join request, Commit then Welcome, messages, a failed join, a removal.")
    @Option(help: "Run through these relays (ws:// or wss://) instead of the in-memory one.", transform: RelayURLOption.parse) var relay: [String] = []
    @Flag(help: "Print a machine-readable transcript: one object per step with step, actor, ok and ids.") var json = false
    @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code.") var noQR = false

    func run() async throws {
        try await runReportingErrors {
            let pool = relay.isEmpty ? RelayPool([InMemoryRelay(url: "wss://in-memory.invitekit.local")]) : RelayPool(urls: relay)
            defer { Task { await pool.close() } }
            var steps: [String] = []
            let ok = try await DemoStory.run(pool: pool, showQR: !noQR && !json) { step in
                if json {
                    var o = JSONOutput()
                    o.add("step", step.step)
                    o.add("title", step.title)
                    o.add("actor", step.actor)
                    o.add("ok", step.ok)
                    o.add("ids", json: .object(step.ids.map { JSONMember($0.0, .string($0.1)) }))
                    steps.append(o.string)
                } else {
                    StdIO.printLine("\n\(step.ok ? "✔" : "✘") \(step.step). \(step.title) — \(step.actor)")
                    for line in step.text { StdIO.printLine("   \(line)") }
                }
            }
            if json { StdIO.printLine("[" + steps.joined(separator: ",\n ") + "]") }
            else { StdIO.printLine(ok ? "\nEvery step succeeded." : "\nSome steps failed.") }
            if !ok { throw ExitCode(1) }
        }
    }
}
