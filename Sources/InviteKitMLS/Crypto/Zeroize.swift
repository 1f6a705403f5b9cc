import InviteKitCrypto

/// Overwrites a temporary buffer that held secret material before it is released: the module's
/// short name for ``SecureBytes/wipe(_:)``, the one implementation.
@inline(__always)
func zeroize(_ bytes: inout [UInt8]) { SecureBytes.wipe(&bytes) }
