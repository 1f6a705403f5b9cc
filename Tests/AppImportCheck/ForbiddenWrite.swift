// Must not compile: no way to a store transaction from a home.
// expect: 'openExclusive' is inaccessible due to 'package' protection level
import InviteKit

func app() throws {
    let home = StoreHome(directory: "/tmp/app-import-check")
    try home.openExclusive().store.write { _ in }
}
