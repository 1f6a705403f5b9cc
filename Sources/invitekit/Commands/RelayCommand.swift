import ArgumentParser
import Foundation
import InviteKitNostr
import InviteKitRelay

/// `invitekit relay publish|req`: NIP-01 by hand against real relays.
struct RelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Publish events to relays and query them (NIP-01 over WebSocket).",
        subcommands: [Publish.self, Req.self]
    )

    /// One line on stderr, then a non-zero exit.
    static func fail(_ message: String, code: Int32 = 1) -> ExitCode {
        StdIO.printError(message, prefix: "invitekit relay: ")
        return ExitCode(code)
    }

    /// One line on stdout, unbuffered (lines from --live must show up at once); text from a
    /// relay is escaped (TerminalText), JSON lines are already.
    static func out(_ line: String) {
        StdIO.printLine(TerminalText.escape(line))
    }

    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64(max(seconds, 0.001) * 1000)) }

    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "publish",
            abstract: "Read one signed event (JSON) on stdin and publish it to every relay.",
            discussion: """
            Prints one line per relay: `OK <url> [message]`, `REJECTED <url> <relay's reason>`, or \
            `FAILED <url> <error>` (unreachable, no OK in time). \
            Exits 0 if at least one relay stored the event, 1 if none did, 2 on bad input.
            """
        )

        @Option(name: .customLong("relay"), help: "Relay URL (ws:// or wss://); repeat for several.", transform: RelayURLOption.parse)
        var relays: [String] = []

        @Option(help: "Seconds to wait for each relay's OK.", transform: NumericOption.seconds(NumericOption.timeout))
        var timeout: Double = Duration.relayTimeout / .seconds(1)

        func run() async throws {
            guard !relays.isEmpty else { throw RelayCommand.fail("at least one --relay is required", code: 2) }
            let input: [UInt8]
            do { input = try StdIO.readAll() } catch let e as CLIFailure { throw RelayCommand.fail(e.message, code: 2) }
            let event: NostrEvent
            do { event = try NostrEvent(json: Array(input)) } catch {
                throw RelayCommand.fail("stdin is not a signed event: \(error.description)", code: 2)
            }
            let pool = RelayPool(urls: relays, configuration: RelayClientConfiguration(
                reconnect: ReconnectPolicy(maxAttempts: 2)))
            let result = await pool.publish(event, timeout: RelayCommand.duration(timeout))
            await pool.close()
            for ok in result.succeeded {
                RelayCommand.out("OK \(ok.relay)" + (ok.ok.message.isEmpty ? "" : " \(ok.ok.message)"))
            }
            for f in result.failed {
                let rejected = (f.error as? RelayError)?.code == .rejected
                RelayCommand.out("\(rejected ? "REJECTED" : "FAILED") \(f.input) \(f.error)")
            }
            if result.successCount == 0 {
                throw RelayCommand.fail("no relay accepted event \(event.id)")
            }
        }
    }

    struct Req: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "req",
            abstract: "Send a REQ and print matching events as JSON lines until EOSE (or forever with --live).",
            discussion: "Several --relay options merge the results, without duplicates. Exits 1 if no relay reached EOSE."
        )

        @Option(name: .customLong("relay"), help: "Relay URL (ws:// or wss://); repeat for several.", transform: RelayURLOption.parse)
        var relays: [String] = []

        @Option(name: .customLong("filter"), help: "NIP-01 filter as JSON, e.g. '{\"kinds\":[1059],\"#p\":[\"<hex>\"]}'; repeat for several.")
        var filters: [String] = []

        @Flag(help: "Keep printing live events after EOSE (until interrupted).")
        var live = false

        @Option(help: "Seconds to wait for EOSE.", transform: NumericOption.seconds(NumericOption.timeout))
        var timeout: Double = Duration.relayTimeout / .seconds(1)

        func run() async throws {
            guard !relays.isEmpty else { throw RelayCommand.fail("at least one --relay is required", code: 2) }
            guard !filters.isEmpty else { throw RelayCommand.fail("at least one --filter is required", code: 2) }
            var parsed = [NostrFilter]()
            for f in filters {
                do { parsed.append(try NostrFilter(json: f)) } catch { throw RelayCommand.fail("bad --filter: \(error.description)", code: 2) }
            }
            let pool = RelayPool(urls: relays)
            let sub = await pool.subscribe(parsed)
            let timer = Task {
                try? await Task.sleep(for: RelayCommand.duration(timeout))
                if !Task.isCancelled { await sub.close() }
            }
            var eoseCount = 0
            var closed = [String]()
            for await item in sub.items {
                switch item {
                case .event(let e, _):
                    RelayCommand.out(e.jsonString)
                case .eose:
                    eoseCount += 1
                case .allEOSE:
                    timer.cancel()
                    if !live { await sub.close() }
                case .invalidEvent(let error, let relay):
                    StdIO.printError("skipped an event from \(relay): \(error)", prefix: "invitekit relay: ")
                case .closed(let relay, let message):
                    closed.append("\(relay): \(message)")
                }
            }
            timer.cancel()
            await pool.close()
            if eoseCount == 0 {
                throw RelayCommand.fail(closed.isEmpty ? "no relay sent EOSE within \(timeout) s" : "subscription closed: " + closed.joined(separator: "; "))
            }
        }
    }
}
