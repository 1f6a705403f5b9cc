import Foundation
import InviteKit
import InviteKitMLS

/// Output shared by the node commands.
enum NodeOutput {
    /// One line: JSON with sorted keys, or `text` with control characters escaped (it carries
    /// untrusted strings: message contents, group names, relay messages).
    static func emit(_ json: Bool, _ fields: [String: String], text: String) {
        if json {
            var o = JSONOutput()
            for (k, v) in fields.sorted(by: { $0.key < $1.key }) { o.add(k, v) }
            StdIO.printLine(o.string)
        } else {
            StdIO.printLine(TerminalText.escape(text))
        }
    }

    static func npub(_ key: [UInt8]) -> String {
        (try? Secp256k1.XOnlyPublicKey(rawRepresentation: key)).map { NIP19.npub($0) } ?? Hex.encode(key)
    }

    static func time(_ t: Int64) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    /// `--timeout`'s seconds as a duration: a bound the whole command keeps.
    static func duration(seconds: Double) throws -> Duration {
        guard seconds.isFinite, seconds >= 0, seconds <= 31_536_000 else {
            throw CLIFailure("--timeout must be a number of seconds between 0 and 31536000", exitCode: 64)
        }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// The instant `seconds` from now (`serve --duration`).
    static func deadline(after seconds: Double) throws -> ContinuousClock.Instant {
        ContinuousClock.now + (try duration(seconds: seconds))
    }
}
