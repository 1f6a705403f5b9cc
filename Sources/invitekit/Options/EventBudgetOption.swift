import ArgumentParser
import InviteKitMLS

/// `--max-event-bytes N` (PROTOCOL §5.11): the bound on every event a command publishes or prints
/// to publish; one option for `serve`, the node's `group` commands and the `mls` tool.
struct EventBudgetOption: ParsableArguments {
    @Option(name: .customLong("max-event-bytes"), help: "Largest event to publish, and so to accept, in bytes (PROTOCOL §5.11).",
            transform: NumericOption.integer(NumericOption.maxEventBytes))
    var maxEventBytes: Int = EventBudget.defaultMaxEventBytes

    var budget: EventBudget { get throws { try EventBudget(maxEventBytes: maxEventBytes) } }
}
