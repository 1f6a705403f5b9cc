import ArgumentParser
import Foundation
import InviteKit

/// Where a command gets its Nostr secret key, in the recommended order (README, "Secret keys"):
/// `--secret-key-file PATH` (a file nobody else can read), the `INVITEKIT_SECRET_KEY`
/// environment variable, `--secret-key -` (one line on stdin), or `--secret-key KEY` on the
/// command line, which `ps` and shell history can show.
struct SecretKeyInput: ParsableArguments {
    static let environmentVariable = "INVITEKIT_SECRET_KEY"

    @Option(name: .customLong("secret-key"),
            help: ArgumentHelp("Secret key: 64 hex characters or nsec1…, or - to read it from stdin. Visible in ps: prefer --secret-key-file or $INVITEKIT_SECRET_KEY.",
                               valueName: "key"))
    var secretKey: [String] = []

    @Option(name: .customLong("secret-key-file"), help: ArgumentHelp("Read the secret key from this file (mode 0600 or stricter).", valueName: "path"),
            transform: PathOption.parse)
    var secretKeyFile: String?

    /// The key. `stdinIsInput` is true for commands that read their data from stdin, where
    /// `--secret-key -` would take the data as the key.
    func resolve(stdinIsInput: Bool = false) throws -> Secp256k1.PrivateKey {
        guard secretKey.count <= 1 else { throw CLIFailure("--secret-key is given more than once; give it once", exitCode: 64) }
        if !secretKey.isEmpty, secretKeyFile != nil {
            throw CLIFailure("give either --secret-key or --secret-key-file, not both", exitCode: 64)
        }
        if let path = secretKeyFile { return try Self.parse(try Self.readPrivateFile(path), source: "--secret-key-file") }
        if let value = secretKey.first {
            if value == "-" {
                guard !stdinIsInput else {
                    throw CLIFailure("--secret-key - cannot be used here: this command reads its input on stdin; use --secret-key-file or $\(Self.environmentVariable)", exitCode: 64)
                }
                return try Self.parse(try StdIO.readAll(limit: 4096), source: "stdin")
            }
            return try Self.parse(Array(value.utf8), source: "--secret-key")
        }
        if let env = ProcessInfo.processInfo.environment[Self.environmentVariable] {
            return try Self.parse(Array(env.utf8), source: "$\(Self.environmentVariable)")
        }
        throw CLIFailure("a secret key is required: --secret-key-file PATH, $\(Self.environmentVariable), --secret-key - (stdin) or --secret-key KEY", exitCode: 64)
    }

    static func parse(_ bytes: [UInt8], source: String) throws -> Secp256k1.PrivateKey {
        var text = String(decoding: bytes, as: UTF8.self)
        defer { text = "" }
        do { return try NostrKeys.parseSecretKey(text) } catch {
            throw CLIFailure("\(source) is not a secret key (64 hex characters or nsec1…)")
        }
    }

    /// The file's bytes, refusing anything but a regular file that only its owner can read.
    static func readPrivateFile(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw CLIFailure("cannot open --secret-key-file \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { throw CLIFailure("--secret-key-file \(path) is not a regular file") }
        guard st.st_mode & 0o077 == 0 else {
            throw CLIFailure("refusing --secret-key-file \(path): group or others can access it (mode \(String(st.st_mode & 0o777, radix: 8))); run chmod 600")
        }
        guard st.st_size <= 4096 else { throw CLIFailure("--secret-key-file \(path) is larger than 4096 bytes") }
        var buf = [UInt8](repeating: 0, count: 4097)
        let n = read(fd, &buf, buf.count)
        guard n >= 0 else { throw CLIFailure("cannot read --secret-key-file \(path)") }
        return Array(buf[0..<n])
    }
}
