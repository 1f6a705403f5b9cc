import InviteKitRelay

/// `--relay URL` options: checked by ``RelayURL`` (ws or wss, a host, bounded length) while the
/// command line is parsed, so a bad URL is a usage error (exit 64) before anything is stored.
enum RelayURLOption {
    static let parse: @Sendable (String) throws -> String = { text in
        do throws(RelayError) {
            return try RelayURL.validate(text)
        } catch {
            throw CLIFailure(error.detail, exitCode: 64)
        }
    }
}
