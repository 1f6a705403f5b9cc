internal import CSodium

/// libsodium must be initialised once before use; `sodium_init` is idempotent and thread-safe.
enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0
    static func ensureInitialized() {
        precondition(initialized, "libsodium failed to initialise")
    }
}
