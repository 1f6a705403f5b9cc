import ArgumentParser
import Foundation
import InviteKit
import InviteKitMLS

/// `invitekit keypackage create|verify` (issue 4).
struct KeyPackageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keypackage", abstract: "Create and verify Marmot KeyPackage events (kind 30443).",
        subcommands: [Create.self, Verify.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Print a signed kind-30443 KeyPackage event.")
        @OptionGroup var secret: SecretKeyInput
        @Option(name: .customLong("relay"), help: "Relay URL for the relays tag (repeatable; MIP profile only).") var relays: [String] = []
        @Flag(name: .customLong("last-resort"), help: "Mark the KeyPackage last resort.") var lastResort = false
        @Option(name: .customLong("lifetime"), help: "Validity in seconds from now (default: 84 days current, 90 days mip).", transform: NumericOption.integer(1...KeyPackageEvent.maxLifetime)) var lifetime: UInt64?
        @OptionGroup var profile: ProfileOption
        @Option(name: .customLong("store"), help: "Directory that keeps the private keys.", transform: PathOption.parse) var store: String?
        @Flag(name: .customLong("json"), help: "Print {event, reference, ...} instead of the bare event.") var json = false

        func run() throws {
            try runReportingErrors {
                let key = try secret.resolve()
                let (event, bundle) = try KeyPackageEvent.create(nostrKey: key, relays: relays, lastResort: lastResort, lifetime: lifetime,
                                                                 profile: profile.profile)
                if let store {
                    try SafeFile.requirePrivateDirectory(store, role: "--store")
                    try FileKeyPackageStore(directory: URL(fileURLWithPath: store)).save(bundle)
                }
                guard json else { return StdIO.printLine(event.jsonString) }
                var out = JSONOutput()
                out.add("event", json: event.jsonValue)
                out.add("reference", Hex.encode(bundle.reference))
                out.add("last_resort", lastResort)
                out.add("profile", bundle.keyPackage.profile.rawValue)
                guard let l = bundle.keyPackage.leafNode.lifetime else { throw CLIFailure("the KeyPackage has no lifetime") }
                // Bounded by --lifetime's maximum, so these are exactly the package's values.
                out.add("not_before", json: .number(String(l.notBefore)))
                out.add("not_after", json: .number(String(l.notAfter)))
                out.add("stored", store != nil)
                StdIO.printLine(out.string)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "verify", abstract: "stdin a KeyPackage event; exit 0 if valid, 1 with the reason otherwise.")
        @Option(name: .customLong("now"), help: "Unix time to check the lifetime against (default: now).", transform: NumericOption.integer(NumericOption.unixTime)) var now: Int64?
        @Option(name: .customLong("skew"), help: "Allowed clock skew in seconds (default 300).", transform: NumericOption.integer(0...Verify.maxSkew)) var skew: UInt64 = KeyPackageEvent.defaultClockSkew

        /// Largest `--skew`: one day (a larger window makes the Lifetime check meaningless).
        static let maxSkew: UInt64 = 86_400

        func run() throws {
            try runReportingErrors {
                let event = try NostrEvent(json: try StdIO.readAll())
                let v = try KeyPackageValidator.validate(event, now: now ?? UnixTime.now(), skew: skew)
                StdIO.printLine("valid: ref \(Hex.encode(v.reference))\(v.isLastResort ? " last_resort" : "") profile \(v.keyPackage.profile)")
            }
        }
    }
}
