import Foundation

/// The process's three standard streams, written with `write(2)` so that every failure is seen:
/// a failed write to stdout ends the process with a message and exit 1 (output that is silently
/// lost is worse than no output), a failed write to stderr is ignored (a diagnostic that cannot
/// be shown must not turn into a crash), and a closed pipe still ends the process by SIGPIPE
/// (exit 141), as shell pipelines expect.
enum StdIO {
    /// `true` when the process started with fd 1 closed: the slot is parked on /dev/null so that
    /// no file opened later lands on it, and every write to stdout fails as it would have.
    nonisolated(unsafe) private static var stdoutWasClosed = false

    /// Occupies any of fds 0–2 that the process started without, before anything is opened.
    /// Otherwise the first file InviteKit opens would become "stderr" or "stdout" and receive
    /// diagnostics or output meant for the terminal.
    static func prepareDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let parked = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if parked >= 0, parked != fd { _ = dup2(parked, fd); _ = close(parked) }
            if fd == 1 { stdoutWasClosed = true }
        }
    }

    /// All of standard input, bounded so a runaway pipe cannot exhaust memory.
    static func readAll(limit: Int = 64 * 1024 * 1024) throws -> [UInt8] {
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(0, &chunk, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIFailure("cannot read standard input: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw CLIFailure("standard input exceeds \(limit) bytes") }
        }
        return out
    }

    /// Writes all of `bytes` to stdout or ends the process: exit 1 with a message when the write
    /// fails (disk full, stdout closed, I/O error), death by SIGPIPE when the reader went away.
    static func write(_ bytes: [UInt8]) {
        if stdoutWasClosed { failStdout(EBADF) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(1, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { failStdout(n < 0 ? errno : EIO) }
            offset += n
        }
    }

    static func printLine(_ s: String) { write(Array((s + "\n").utf8)) }

    /// Checks what buffered writers (`print`, used by ArgumentParser's help) still hold.
    static func flush() {
        if fflush(nil) != 0 { failStdout(errno) }
    }

    private static func failStdout(_ code: Int32) -> Never {
        if code == EPIPE {
            // Something (SwiftNIO) may have ignored SIGPIPE; the shell contract is death by it.
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        printError("cannot write standard output: \(String(cString: strerror(code)))")
        Foundation.exit(1)
    }

    /// One line on stderr, `invitekit: ` first, with every control and bidi character escaped
    /// (messages quote untrusted input). Best effort: a failure is ignored.
    static func printError(_ s: String, prefix: String = "invitekit: ") {
        writeError(Array((prefix + TerminalText.escape(s) + "\n").utf8))
    }

    /// Raw bytes on stderr, best effort.
    static func writeError(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(2, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}
