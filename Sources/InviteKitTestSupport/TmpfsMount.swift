import Foundation
import XCTest

/// A small tmpfs mounted for one test (full-disk and read-only cases), unmounted on deinit.
/// Mounting needs root (or CAP_SYS_ADMIN); without it the test is skipped with the reason.
package final class TmpfsMount {
    package let path: String
    private let parent = TemporaryDirectory(prefix: "invitekit-tmpfs")

    package init(sizeKiB: Int) throws {
        path = parent.file("mnt")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard geteuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root; this user is uid \(geteuid())") }
        let status = Self.sh("/bin/mount", ["-t", "tmpfs", "-o", "size=\(sizeKiB)k,mode=0755", "tmpfs", path])
        guard status == 0 else { throw XCTSkip("mount -t tmpfs failed (exit \(status)): no tmpfs in this sandbox") }
    }

    /// Remounts read-only (`mount -o remount,ro`).
    package func remountReadOnly() throws {
        let status = Self.sh("/bin/mount", ["-o", "remount,ro", path])
        guard status == 0 else { throw XCTSkip("mount -o remount,ro failed (exit \(status))") }
    }

    package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    @discardableResult
    static func sh(_ tool: String, _ args: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try p.run() } catch { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Fills what is left of the mount with one file (`fill`); deleting it frees the space again.
    package func fill() {
        guard let h = FileHandle(forWritingAtPath: file("fill")) ?? {
            _ = FileManager.default.createFile(atPath: file("fill"), contents: nil)
            return FileHandle(forWritingAtPath: file("fill"))
        }() else { return }
        defer { try? h.close() }
        let chunk = Data(count: 4096)
        while (try? h.write(contentsOf: chunk)) != nil {}
    }

    deinit { Self.sh("/bin/umount", ["-l", path]) }
}
