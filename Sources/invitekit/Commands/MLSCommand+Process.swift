import ArgumentParser
import Foundation
import InviteKit
import InviteKitMLS

extension MLSCommand {
    struct Process: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "process",
            abstract: "Events on stdin (one per line): gift-wrapped Welcomes (1059), their tree chunks (447) and group events (445); one outcome line each.")
        @OptionGroup var secret: SecretKeyInput
        @OptionGroup var state: StateOption
        @Option(name: .customLong("keypackage-store"), help: ArgumentHelp("Directory of KeyPackage private keys (from keypackage create --store), for Welcomes.", valueName: "dir"),
                transform: PathOption.parse)
        var store: String?
        /// The bound this tool sends with is the bound it reads with (PROTOCOL §5.11).
        @OptionGroup var eventBudget: EventBudgetOption

        func run() throws {
            try runReportingErrors {
                let events = try MLSCommand.readEvents()
                // Lines are printed once the state holding their effects is saved: a failed save
                // prints nothing but the error, and the events can be processed again.
                let lines = try state.locked { try process(events) }
                for line in lines { StdIO.printLine(line) }
            }
        }

        /// Processes `events` against the state and saves it when the group or its buffered
        /// events changed (an event nobody can open changes only the buffer).
        func process(_ events: [NostrEvent]) throws -> [String] {
            var file = GroupStateFile.exists(state.path) ? try GroupStateFile.load(state.path) : nil
            var key: Secp256k1.PrivateKey?
            var keyPackages: FileKeyPackageStore?
            var changed = false
            var lines: [String] = []
            // A Welcome whose ratchet tree is out of band needs its kind-447 chunk events (PROTOCOL
            // §5.11); `mls confirm` prints them before the Welcomes, but any order joins: every
            // chunk of the input is offered to every Welcome in it (extra ones are ignored).
            let chunks = events.filter { $0.kind == RatchetTreeChunks.kind }
            for event in events {
                switch event.kind {
                case RatchetTreeChunks.kind:
                    var o = JSONOutput()
                    o.add("type", "tree_chunk")
                    o.add("event", event.id)
                    lines.append(o.string)
                case GiftWrap.wrapKind:
                    if key == nil { key = try secret.resolve(stdinIsInput: true) }
                    if keyPackages == nil {
                        guard let store else { throw CLIFailure("a Welcome arrived: give --keypackage-store DIR", exitCode: 64) }
                        try SafeFile.requirePrivateDirectory(store, role: "--keypackage-store")
                        keyPackages = try FileKeyPackageStore(directory: URL(fileURLWithPath: store))
                    }
                    let line = try join(event, key: key!, store: keyPackages!, chunks: chunks, file: &file)
                    changed = changed || line.joined
                    lines.append(line.output.string)
                case MarmotGroupEvent.kind:
                    guard file != nil else {
                        lines.append(Self.rejected(event, MLSError(.notMember, "no group state yet: process a Welcome first")).string)
                        continue
                    }
                    let receipt = file!.group.ingest(event: event, budget: try eventBudget.budget)
                    for outcome in receipt.outcomes { lines.append(Self.line(outcome, event: event).string) }
                    changed = changed || receipt.stateChanged || receipt.bufferChanged || receipt.seenChanged
                default:
                    lines.append(Self.rejected(event, MLSError(.invalidEvent, "kind \(event.kind) is neither a gift wrap (1059), a tree chunk (447) nor a group event (445)")).string)
                }
            }
            if changed, let file { try file.save(state.path) }
            return lines
        }

        /// Joins from a Welcome, or replaces the state of the same group when the Welcome is newer
        /// (a joiner whose first Welcome lost a commit race is re-added on a later epoch). A tree
        /// out of band is put together from `chunks`; one missing is `tree_chunks_missing`.
        func join(_ wrap: NostrEvent, key: Secp256k1.PrivateKey, store: FileKeyPackageStore, chunks: [NostrEvent],
                  file: inout GroupStateFile?) throws -> (output: JSONOutput, joined: Bool) {
            let group: GroupStateFile.Group
            do {
                let gift: UnwrappedGift
                do { gift = try GiftWrap.unwrap(wrap, recipient: key) } catch { throw MLSError(.invalidWelcome, "gift wrap: \(error)") }
                let opened = try GroupStateFile.Group.openWelcome(gift: gift, recipient: key, store: store)
                group = try GroupStateFile.Group.join(opened, treeChunkEvents: chunks, store: store)
            } catch let e as MLSError {
                return (Self.rejected(wrap, e), false)
            }
            var replaced = false
            if let current = file?.group {
                guard current.nostrGroupID == group.nostrGroupID else {
                    return (Self.rejected(wrap, MLSError(.wrongGroup, "the state file holds another group; use another --state")), false)
                }
                guard current.isRemoved || group.epoch > current.epoch else {
                    return (Self.rejected(wrap, MLSError(.staleCommit, "Welcome for epoch \(group.epoch); the state is at epoch \(current.epoch)")), false)
                }
                replaced = true
            }
            file = GroupStateFile(group: group, pending: nil)
            var o = MLSCommand.groupSummary(group, type: "joined")
            o.add("event", wrap.id)
            o.add("replaced", replaced)
            return (o, true)
        }

        static func rejected(_ event: NostrEvent, _ error: MLSError) -> JSONOutput {
            var o = JSONOutput()
            o.add("type", "rejected")
            o.add("event", event.id)
            o.add("code", error.code.rawValue)
            o.add("detail", error.detail)
            return o
        }

        static func line(_ outcome: MarmotOutcome, event: NostrEvent) -> JSONOutput {
            var o = JSONOutput()
            func strings(_ a: [String]) -> JSONValue { .array(a.map { .string($0) }) }
            switch outcome {
            case let .message(rumor, epoch):
                o.add("type", "message")
                o.add("event", event.id)
                o.add("epoch", Int64(epoch))
                o.add("sender", rumor.pubkey)
                o.add("kind", rumor.kind)
                o.add("content", rumor.content)
                o.add("created_at", rumor.createdAt)
                o.add("rumor", json: rumor.jsonValue)
            case let .commitApplied(epoch, added, removed):
                o.add("type", "commit_applied")
                o.add("event", event.id)
                o.add("epoch", Int64(epoch))
                o.add("added", json: strings(added))
                o.add("removed", json: strings(removed))
            case let .rolledBack(toEpoch, nowAt, lostAdds):
                o.add("type", "rolled_back")
                o.add("event", event.id)
                o.add("to_epoch", Int64(toEpoch))
                o.add("epoch", Int64(nowAt))
                o.add("lost_adds", json: strings(lostAdds.map(\.pubkey)))
            case let .superseded(epoch):
                o.add("type", "superseded")
                o.add("event", event.id)
                o.add("epoch", Int64(epoch))
            case let .leaveRequest(pubkey):
                o.add("type", "leave_request")
                o.add("event", event.id)
                o.add("member", pubkey)
            case .removed:
                o.add("type", "removed")
                o.add("event", event.id)
            case .duplicate:
                o.add("type", "duplicate")
                o.add("event", event.id)
            case .buffered:
                o.add("type", "buffered")
                o.add("event", event.id)
            case let .evicted(id):
                o.add("type", "evicted")
                o.add("event", id)
            case let .rejected(error):
                return rejected(event, error)
            }
            return o
        }
    }

    struct Send: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "send", abstract: "Print the kind-445 event carrying an application message.")
        @OptionGroup var state: StateOption
        @Option(name: .customLong("content"), help: "Message text.") var content: String
        @Option(name: .customLong("kind"), help: "Kind of the inner (unsigned) event; \(MarmotProfile.chatMessageKind) is a chat message.", transform: NumericOption.integer(Int(NostrEvent.kindRange.lowerBound)...Int(NostrEvent.kindRange.upperBound))) var kind: Int = MarmotProfile.chatMessageKind
        @OptionGroup var eventBudget: EventBudgetOption

        func validate() throws { guard NostrEvent.kindRange.contains(Int64(kind)) else { throw ValidationError("--kind must be in \(NostrEvent.kindRange)") } }

        func run() throws {
            try runReportingErrors {
                let budget = try eventBudget.budget
                let (file, event) = try state.locked {
                    var file = try GroupStateFile.load(state.path)
                    let event = try file.group.message(EventTemplate(kind: kind, content: content))
                    // Before the save: a message too large for the relays leaves the ratchet where it was.
                    try budget.check(event, "the message event")
                    try file.save(state.path)
                    return (file, event)
                }
                var o = JSONOutput()
                o.add("type", "message_event")
                o.add("epoch", Int64(file.group.epoch))
                o.add("event", json: event.jsonValue)
                StdIO.printLine(o.string)
            }
        }
    }
}
