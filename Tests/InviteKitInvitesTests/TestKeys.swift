import InviteKitCrypto

/// Fixed keys for tests and vectors (never real keys).
enum TestKeys {
    static let creatorSecretHex = "0000000000000000000000000000000000000000000000000000000000000003"
    static let otherSecretHex = "b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef"
    static var creator: Secp256k1.PrivateKey { try! Secp256k1.PrivateKey(rawRepresentation: Hex.decode(creatorSecretHex)!) }
    static var other: Secp256k1.PrivateKey { try! Secp256k1.PrivateKey(rawRepresentation: Hex.decode(otherSecretHex)!) }
}
