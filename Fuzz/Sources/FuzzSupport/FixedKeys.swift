import InviteKitCrypto
import InviteKitNostr

/// Keys fixed across runs so that crashes replay. The Nostr keys are NIP-59's worked example
/// (vectors/external/nip59-example.json), so the vector's gift wrap is a meaningful seed.
public enum FixedKeys {
    public static let author = try! Secp256k1.PrivateKey(rawRepresentation: Hex.decode("0beebd062ec8735f4243466049d7747ef5d6594ee838de147f8aab842b15e273")!)
    public static let recipient = try! Secp256k1.PrivateKey(rawRepresentation: Hex.decode("e108399bd8424357a710b606ae0c13166d853d327e47a6e5e038197346bdbf45")!)
    public static let ephemeral = try! Secp256k1.PrivateKey(rawRepresentation: Hex.decode("4f02eac59266002db5801adc5270700ca69d5b8f761d8732fab2fbf233c90cbd")!)
    /// A key that signs nothing in the fixtures: the "someone else" of forgery checks.
    public static let stranger = try! Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32))
    /// The NIP-44 vector suite's `get_message_keys` conversation key.
    public static let conversationKey = try! NIP44.ConversationKey(rawRepresentation: Hex.decode("a1a3d60f3470a8612633924e91febf96dc5366ce130f658b1f0fc652c20b3b54")!)
}

/// Zero auxiliary randomness for BIP-340 signing: deterministic signatures for replayable
/// crashes. Never use it to make keys (a zero scalar is invalid and key generation would spin).
public struct ZeroRandom: RandomSource {
    public init() {}
    public func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count { buffer[i] = 0 }
    }
}
