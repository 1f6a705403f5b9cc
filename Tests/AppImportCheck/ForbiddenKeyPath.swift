// Must not compile: not even the secret key file's path.
// expect: 'identityKeyPath' is inaccessible due to 'package' protection level
import InviteKit

func app() -> String {
    StoreHome(directory: "/tmp/app-import-check").identityKeyPath
}
