import ArgumentParser
import Foundation
import InviteKitCrypto
import InviteKitInvites
import InviteKitNostr

/// `invitekit invite …`: Whistle codes and Convos-format signed invites, stateless or of a node's
/// group (`create --group ID`, `revoke`, and the Whistle join requests: InviteCommand+Node).
struct InviteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite", abstract: "Create, decode, verify and render group invites (Whistle codes, signed invites); a node's invites and join requests.",
        subcommands: [Create.self, Decode.self, Verify.self, QR.self, ApprovalURLCommand.self, ParseApproval.self,
                      Revoke.self, Requests.self, Approve.self, Decline.self, Link.self])

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case whistle, signed
    }

    /// One command, two forms: `--group ID` asks a node for an invite of its group (recorded in
    /// its home); without it the invite is made here from `--group-id`, `--relay` and a secret key.
    /// An option of the other form is refused (exit 64), never ignored.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create",
            abstract: "Create an invite and print its URL: of a node's group (--group ID), or stateless (--group-id G --relay URL, a secret key).")
        @OptionGroup var secret: SecretKeyInput
        @Option(help: "A node's group id: the node makes the invite and records it in its home.") var group: String?
        @Option(help: "The node's home, with --group (default: $INVITEKIT_HOME, else ~/.invitekit).", transform: PathOption.parse) var home: String?
        @Option(help: "The group id (stateless).") var groupId: String?
        @Option(help: "Relay URL (wss://…); repeat for several (stateless).") var relay: [String] = []
        @Option(help: "whistle or signed.") var format: Format = .signed
        @Option(help: "Group name (signed, stateless).") var name: String?
        @Option(help: "Group description (signed, stateless).") var description: String?
        @Option(help: "Invite lifetime in seconds (signed; at most 100 years, 10 with --group).", transform: NumericOption.integer(1...InviteCommand.maxLifetime)) var expiresIn: Int64?
        @Option(help: "Conversation lifetime in seconds (signed, stateless; at most 100 years).", transform: NumericOption.integer(1...InviteCommand.maxLifetime)) var conversationExpiresIn: Int64?
        @Flag(help: "The invite works once (signed).") var singleUse = false
        @Option(help: "The group's current invite tag, 1–64 of [A-Za-z0-9] (signed, stateless); random when omitted.") var tag: String?
        @Option(help: "Domain of the https link (signed, stateless; default \(InviteLink.defaultDomain)).") var domain: String?
        @Flag(help: "Also print the URL as a QR code.") var qr = false
        @Flag(help: "Print JSON {url, code, format, tag, …} ({url, format, single_use} with --group).") var json = false

        func run() async throws {
            try await runReportingErrors {
                if let group {
                    let stateless: [(String, Bool)] = [
                        ("--group-id", groupId != nil), ("--relay", !relay.isEmpty), ("--name", name != nil), ("--description", description != nil),
                        ("--conversation-expires-in", conversationExpiresIn != nil), ("--tag", tag != nil), ("--domain", domain != nil),
                        ("--secret-key", !secret.secretKey.isEmpty), ("--secret-key-file", secret.secretKeyFile != nil)]
                    if let bad = stateless.first(where: { $0.1 }) {
                        throw CLIFailure("\(bad.0) applies to the stateless invite (without --group); a node's invite takes its relays, key and tag from the node", exitCode: 64)
                    }
                    try await InviteCommand.createOnNode(group: group, home: home, singleUse: singleUse, expiresIn: expiresIn, format: format, json: json, qr: qr)
                } else {
                    if home != nil { throw CLIFailure("--home applies to a node's invite: add --group ID", exitCode: 64) }
                    guard let groupId else { throw CLIFailure("give --group-id G (a stateless invite) or --group ID (a node's group)", exitCode: 64) }
                    try createStateless(groupId: groupId)
                }
            }
        }

        private func createStateless(groupId: String) throws {
            try runInvite {
                guard !relay.isEmpty else { throw CLIFailure("at least one --relay is required", exitCode: 64) }
                for r in relay where !RelayURLCheck.isValid(r) { throw CLIFailure("--relay must be a ws:// or wss:// URL: \(r)") }
                guard !groupId.isEmpty else { throw CLIFailure("--group-id must not be empty") }
                let key = try secret.resolve()
                var out = JSONOutput()
                switch format {
                case .whistle:
                    guard relay.count == 1 else { throw CLIFailure("a Whistle code carries exactly one --relay") }
                    let signedOnly: [(String, Bool)] = [("--name", name != nil), ("--description", description != nil),
                        ("--expires-in", expiresIn != nil), ("--conversation-expires-in", conversationExpiresIn != nil),
                        ("--single-use", singleUse), ("--tag", tag != nil), ("--domain", domain != nil)]
                    if let bad = signedOnly.first(where: { $0.1 }) { throw CLIFailure("\(bad.0) applies to signed invites only") }
                    let code = try InviteCommand.building { () throws(InviteError) in
                        try InviteCode(checkedRelay: relay[0], inviter: key.publicKey, groupId: groupId)
                    }
                    out.add("url", code.url)
                    out.add("code", code.code)
                    out.add("format", "whistle")
                    out.add("tag", json: .null)
                    out.add("relay", code.relay)
                    out.add("inviterNpub", code.inviterNpub)
                    out.add("groupId", code.groupId)
                case .signed:
                    if let tag, !InviteTag.isValid(tag) {
                        throw CLIFailure("--tag must be \(InviteTag.rule)")
                    }
                    for (flag, v) in [("--expires-in", expiresIn), ("--conversation-expires-in", conversationExpiresIn)] {
                        if let v, v <= 0 || v > InviteCommand.maxLifetime {
                            throw CLIFailure("\(flag) must be 1...\(InviteCommand.maxLifetime) seconds (at most 100 years)", exitCode: 64)
                        }
                    }
                    let now = Int64(Date().timeIntervalSince1970)
                    let options = InviteOptions(
                        relays: relay, name: name, description: description,
                        expiresAtUnix: expiresIn.map { now + $0 }, conversationExpiresAtUnix: conversationExpiresIn.map { now + $0 },
                        singleUse: singleUse, tag: tag)
                    let invite = try InviteCommand.building { () throws(InviteError) in
                        try SignedInvite.create(conversationID: groupId, creator: key, options: options)
                    }
                    let slug = invite.encodedSlug()
                    out.add("url", try InviteLink.url(slug: slug, domain: domain ?? InviteLink.defaultDomain))
                    out.add("code", slug)
                    out.add("format", "signed")
                    out.add("tag", invite.payload.tag)
                    out.add("creator", key.publicKey.hex)
                    out.add("creatorNpub", NIP19.npub(key.publicKey))
                    out.add("relays", json: .array(relay.map { .string($0) }))
                    InviteCommand.addOptional(&out, "name", name)
                    InviteCommand.addOptional(&out, "description", description)
                    out.add("expiresAt", json: options.expiresAtUnix.map { .number(String($0)) } ?? .null)
                    out.add("conversationExpiresAt", json: options.conversationExpiresAtUnix.map { .number(String($0)) } ?? .null)
                    out.add("singleUse", singleUse)
                }
                let url = out.value["url"]?.stringValue ?? ""
                if json { StdIO.printLine(out.string) } else { StdIO.printLine(url) }
                if qr { StdIO.write(Array(try QRCode(text: url).terminalString(invert: false).utf8)) }
            }
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "decode",
            abstract: "Print every field of an invite; for signed invites also the recovered signer. Does not judge validity (see verify).")
        @Argument(help: "An invite code or URL.") var invite: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try runInvite {
                var out = JSONOutput()
                switch try AnyInvite(parsing: invite) {
                case .whistle(let c):
                    out.add("format", "whistle")
                    out.add("relay", c.relay)
                    out.add("inviterNpub", c.inviterNpub)
                    out.add("inviterPubkey", c.inviterKey?.hex ?? "")
                    out.add("groupId", c.groupId)
                    out.add("code", c.code)
                    out.add("url", c.url)
                case .signed(let s):
                    let p = s.payload
                    out.add("format", "signed")
                    out.add("tag", p.tag)
                    InviteCommand.addOptional(&out, "name", p.name)
                    InviteCommand.addOptional(&out, "description", p.description)
                    InviteCommand.addOptional(&out, "imageURL", p.imageURL)
                    InviteCommand.addOptional(&out, "emoji", p.emoji)
                    out.add("expiresAt", json: p.expiresAtUnix.map { .number(String($0)) } ?? .null)
                    out.add("conversationExpiresAt", json: p.conversationExpiresAtUnix.map { .number(String($0)) } ?? .null)
                    out.add("singleUse", p.expiresAfterUse)
                    out.add("relays", json: .array(p.relays.map { .string($0) }))
                    out.add("mipProfile", p.mipProfile)
                    out.add("creatorInboxId", Hex.encode(p.creatorInboxId))
                    out.add("conversationToken", Hex.encode(p.conversationToken))
                    out.add("unknownFields", p.unknownFields.count)
                    out.add("signature", Hex.encode(s.signature))
                    if let signer = try? s.recoverSigner() {
                        out.add("signerPubkey", signer.xOnly.hex)
                        out.add("signerNpub", NIP19.npub(signer.xOnly))
                        out.add("signerMatchesCreator", signer.xOnly.rawRepresentation == p.creatorInboxId)
                    } else {
                        out.add("signerPubkey", json: .null)
                        out.add("signerNpub", json: .null)
                        out.add("signerMatchesCreator", false)
                    }
                }
                InviteCommand.emit(out, json: json)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "verify",
            abstract: "Check an invite: exit 0 when valid; exit 2 with the reason on stderr when not.")
        @Argument(help: "An invite code or URL.") var invite: String
        @Option(help: "Require this creator: hex or npub1….") var creator: String?
        @Option(help: "Current time as Unix seconds (default: now).", transform: NumericOption.integer(NumericOption.unixTime)) var now: Int64?
        @Flag(help: "Print JSON {valid, code, message, retryable}.") var json = false

        func run() throws {
            try runInvite {
                let expected = try creator.map { try NostrKeys.parsePublicKey($0) }
                let time = now ?? Int64(Date().timeIntervalSince1970)
                var failure: InviteError?
                var signer: Secp256k1.XOnlyPublicKey?
                var format = "unknown"
                do {
                    switch try AnyInvite(parsing: invite) {
                    case .whistle(let c):
                        format = "whistle"
                        signer = c.inviterKey
                        // The rule `invite create` applies to the same fields.
                        if let problem = c.fieldProblem { failure = InviteError(.invalidPayload, problem) }
                        else if let expected, expected != signer { failure = InviteError(.creatorMismatch) }
                    case .signed(let s):
                        format = "signed"
                        let r = InviteValidator.validate(s, context: InviteValidationContext(now: time, expectedCreator: expected))
                        failure = r.error
                        signer = r.creator
                    }
                } catch let e as InviteError {
                    failure = e
                }
                var out = JSONOutput()
                out.add("valid", failure == nil)
                out.add("code", json: failure.map { .string($0.code.rawValue) } ?? .null)
                out.add("message", json: failure.map { .string($0.message) } ?? .null)
                out.add("retryable", failure?.isRetryable ?? false)
                out.add("format", format)
                if failure == nil, let signer { out.add("creator", signer.hex) }
                if json { StdIO.printLine(out.string) } else if failure == nil { StdIO.printLine("valid") }
                if let failure {
                    StdIO.printError(failure.message)
                    throw ExitCode(2)
                }
            }
        }
    }

    struct QR: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "qr", abstract: "Print an invite as a QR code (Unicode half blocks), or write it as a PNG.")
        @Argument(help: "An invite code or URL; encoded exactly as given.") var invite: String
        @Option(help: "Write a PNG here instead of printing.", transform: PathOption.parse) var png: String?
        @Option(help: "PNG pixels per module (1...64).", transform: NumericOption.integer(1...64)) var scale: Int = 8
        @Flag(help: "Draw dark modules as ink (for light terminal backgrounds).") var invert = false

        func run() throws {
            try runInvite {
                let text = invite.trimmingCharacters(in: .whitespacesAndNewlines)
                _ = try AnyInvite(parsing: text)
                guard text.utf8.count <= QRCode.maxPayloadBytes, let qr = try? QRCode(text: text) else {
                    throw CLIFailure("this invite is \(text.utf8.count) bytes, too long for a QR code (at most \(QRCode.maxPayloadBytes) bytes; fewer at error-correction level M)")
                }
                if let png {
                    try SafeFile.write(try qr.pngData(scale: scale), to: png)
                } else {
                    StdIO.write(Array(qr.terminalString(invert: invert).utf8))
                }
            }
        }
    }

    struct ApprovalURLCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "approval-url", abstract: "Build whistle://addmember/<pubkeyHex>/<groupId>.")
        @Option(help: "The invitee's public key: hex or npub1….") var pubkey: String
        @Option(help: "The group id.") var groupId: String

        func run() throws {
            try runInvite {
                guard !groupId.isEmpty else { throw CLIFailure("--group-id must not be empty") }
                let key = try NostrKeys.parsePublicKey(pubkey)
                let approval = try InviteCommand.building { () throws(InviteError) in try ApprovalURL(checkedPubkey: key, groupId: groupId) }
                StdIO.printLine(approval.url)
            }
        }
    }

    struct ParseApproval: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "parse-approval", abstract: "Parse an approval URL.")
        @Argument(help: "whistle://addmember/… URL.") var url: String
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try runInvite {
                guard url.utf8.count <= ApprovalURL.maxLength else {
                    throw CLIFailure("This approval link is too long: \(url.utf8.count) bytes, at most \(ApprovalURL.maxLength) [input_too_large]")
                }
                let a = try ApprovalURL(url: url)
                var out = JSONOutput()
                out.add("pubkey", a.pubkey.hex)
                out.add("npub", NIP19.npub(a.pubkey))
                out.add("groupId", a.groupId)
                InviteCommand.emit(out, json: json)
            }
        }
    }

    /// Longest `--expires-in` / `--conversation-expires-in`: 100 years, so `now + lifetime`
    /// cannot wrap and stays a date any reader can show.
    static let maxLifetime: Int64 = 100 * 365 * 86400

    /// Runs a builder; its refusal is reported as what it is (a limit of the reader, a bad
    /// argument), not with the sentence a reader shows for a bad invite.
    static func building<T>(_ body: () throws(InviteError) -> T) throws -> T {
        do { return try body() } catch {
            throw CLIFailure("cannot build this: \(error.detail.isEmpty ? error.code.rawValue : error.detail) [\(error.code.rawValue)]")
        }
    }

    static func addOptional(_ out: inout JSONOutput, _ key: String, _ value: String?) {
        out.add(key, json: value.map { .string($0) } ?? .null)
    }

    /// `key: value` lines, or one JSON object.
    static func emit(_ out: JSONOutput, json: Bool) {
        if json { StdIO.printLine(out.string); return }
        guard case .object(let members) = out.value else { return }
        for m in members {
            let text: String
            switch m.value {
            case .string(let s): text = s
            case .number(let n): text = n
            case .bool(let b): text = b ? "true" : "false"
            case .null: text = "-"
            case .array(let a): text = a.compactMap(\.stringValue).joined(separator: ", ")
            case .object: text = JSONWriter.serialize(m.value)
            }
            // Every value may come from the invite's author: escape it for the terminal.
            StdIO.printLine("\(m.key): \(TerminalText.escape(text))")
        }
    }
}

/// Like `runReportingErrors`, with invite errors as "<message> [<code>]: <detail>".
private func runInvite(_ body: () throws -> Void) throws {
    try runReportingErrors {
        do {
            try body()
        } catch let e as InviteError {
            throw CLIFailure(e.detail.isEmpty ? "\(e.message) [\(e.code.rawValue)]" : "\(e.message) [\(e.code.rawValue)]: \(e.detail)")
        }
    }
}
