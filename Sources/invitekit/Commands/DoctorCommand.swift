import ArgumentParser
import Foundation
import InviteKit

/// `invitekit doctor`: a read-only check of a node's home (docs/cli.md §5; the home: docs/storage.md §5): file modes, whether
/// the key and the database are both there, the schema version, `PRAGMA integrity_check`, who
/// holds the lock, how many deliveries wait for a relay, whether `identity.key` is a valid key of
/// this home and whether every group restores, as ``NodeHome/checkup()`` finds them. Exit 0 when
/// nothing is wrong, 1 otherwise. Changes nothing.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor", abstract: "Check a node's home (file modes, schema, integrity, lock, queued deliveries); changes nothing.")
    @Option(help: "Home directory (default: $INVITEKIT_HOME, else ~/.invitekit).", transform: PathOption.parse) var home: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        try runReportingErrors {
            let home = StoreHome.resolve(home)
            let checkup = NodeHome(home).checkup()
            var problems: [String] = []
            var o = JSONOutput()
            var lines: [String] = []
            var files: [JSONValue] = []
            for row in checkup.files {
                let mode = row.mode.map { String($0, radix: 8) } ?? "absent"
                lines.append("file      \(row.name)  \(mode)\(row.problem.map { "  PROBLEM: \($0)" } ?? "")")
                if let p = row.problem { problems.append("\(row.name): \(p)") }
                var f = JSONOutput()
                f.add("name", row.name)
                f.add("mode", mode)
                if let p = row.problem { f.add("problem", p) }
                files.append(f.value)
            }
            o.add("home", home.directory)
            o.add("files", json: .array(files))
            switch checkup.identity {
            case .failure(let error): problems.append(CLIMessages.describe(error))
            case .success(let identity):
                let detail: String
                switch identity {
                case .present: detail = "identity.key and invitekit.sqlite present"
                case .absent: detail = "no identity (run `invitekit init`)"
                case .broken(let error):
                    detail = CLIMessages.describe(error)
                    problems.append(detail)
                }
                lines.append("identity  \(detail)")
                o.add("identity", detail)
            }
            switch checkup.database {
            case .success(let r)?:
                lines.append("schema    v\(r.schemaVersion) (this InviteKit: v\(checkup.currentSchemaVersion))")
                lines.append("integrity \(r.integrity.joined(separator: "; "))")
                lines.append("queued    \(r.queuedDeliveries) deliveries waiting for a relay")
                o.add("schema_version", r.schemaVersion)
                o.add("integrity", json: .array(r.integrity.map { .string($0) }))
                o.add("queued_deliveries", r.queuedDeliveries)
                if r.integrity != ["ok"] { problems.append("integrity_check: \(r.integrity.first ?? "?")") }
                if r.schemaVersion > checkup.currentSchemaVersion { problems.append("schema v\(r.schemaVersion) is newer than this InviteKit") }
            case .failure(let error)?:
                lines.append("database  \(CLIMessages.describe(error))")
                problems.append(CLIMessages.describe(error))
            case nil:
                break
            }
            if let found = checkup.restoreProblems {
                lines.append("groups    \(found.isEmpty ? "every group restores; identity.key is valid" : found.joined(separator: "; "))")
                problems += found
            }
            if let lock = checkup.lock {
                let text = lock.held ? "held by pid \(lock.pid.isEmpty ? "?" : lock.pid) (a node is serving)" : "free"
                lines.append("lock      \(text)")
                o.add("lock", text)
            } else {
                lines.append("lock      free (no lock file)")
                o.add("lock", "free")
            }
            o.add("problems", json: .array(problems.map { .string($0) }))
            if json {
                StdIO.printLine(o.string)
            } else {
                lines.insert("home      \(home.directory)", at: 0)
                lines.append(problems.isEmpty ? "ok" : "\(problems.count) problem(s)")
                for line in lines { StdIO.printLine(TerminalText.escape(line)) }
            }
            if !problems.isEmpty { throw ExitCode(1) }
        }
    }
}
