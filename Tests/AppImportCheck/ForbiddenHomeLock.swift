// Must not compile: the home's lock is the node's.
// expect: cannot find 'HomeLock' in scope
import InviteKit

func app() throws {
    _ = try HomeLock(path: "/tmp/app-import-check/lock")
}
