// Must not compile: the store is the node's.
// expect: cannot find 'Store' in scope
import InviteKit

func app() throws {
    _ = try Store.open(path: "/tmp/app-import-check/invitekit.sqlite")
}
