import InviteKit

/// Every path option (`--home`, `--state`, `--store`, `--keypackage-store`, `--png`,
/// `--secret-key-file`, `vectors --dir`): made absolute while the command line is read, by the
/// one resolver, the one a home's directory is made absolute with (``StoreHome/absolutePath(_:)``,
/// docs/cli.md §3, "Paths").
enum PathOption {
    static func parse(_ text: String) -> String { StoreHome.absolutePath(text) }
}
