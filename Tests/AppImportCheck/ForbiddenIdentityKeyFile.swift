// Must not compile: the secret key file is read by the node only.
// expect: cannot find 'IdentityKeyFile' in scope
import InviteKit

func app() throws {
    _ = try IdentityKeyFile.read(from: "/tmp/app-import-check/identity.key")
}
