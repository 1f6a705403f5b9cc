// Must not compile: importing the store module itself gives an app nothing that opens or writes it.
// expect: cannot find 'Store' in scope
import InviteKitStore

func app() throws {
    try Store.open(path: "/tmp/app-import-check/invitekit.sqlite").write { _ in }
}
