import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Named places inside transactions where a test can kill the process, to prove that a crash at
/// that step loses nothing and repeats nothing. Chosen by `INVITEKIT_FAILPOINT=name`; a no-op
/// otherwise. The kill is `SIGKILL` on the process itself: no cleanup, no flush, as with `kill -9`.
package enum FailPoint {
    /// The fail point armed for this process, read once.
    package static let armed: String? = ProcessInfo.processInfo.environment["INVITEKIT_FAILPOINT"].flatMap { $0.isEmpty ? nil : $0 }

    /// Kills the process if `name` is the armed fail point.
    @inline(__always)
    package static func hit(_ name: String) {
        guard let armed, armed == name else { return }
        kill(getpid(), SIGKILL)
        _exit(137)  // not reached; SIGKILL cannot be caught
    }
}
