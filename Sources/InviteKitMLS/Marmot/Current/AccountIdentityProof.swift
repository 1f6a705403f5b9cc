import InviteKitCrypto
import InviteKitNostr

/// The account identity proof, app component `0x8009` (`marmot.member.account-identity-proof.v2`;
/// `shared/marmot/v2/app-components/account-identity-proof-v2.md`; MDK v0.9.14
/// `crates/cgka-engine/src/account_identity_proof.rs`; PROTOCOL §5.12.2): the Nostr account in a
/// leaf's BasicCredential signed the leaf's MLS signature key.
///
///     opaque signer_pubkey[32]; uint64 created_at; opaque signature[64];   // 104 bytes, no prefix
///
/// The signature is BIP-340 by the account key over the NIP-01 id of a local kind-450 event that
/// names the component, suite, signature scheme and leaf signature key. It is never published.
public struct AccountIdentityProof: Hashable, Sendable {
    public static let componentID = ComponentID.accountIdentityProof
    public static let byteCount = 104
    /// Kind of the local signing event.
    public static let signingKind = 450
    /// The `d` tag: the proof's domain.
    public static let domain = "marmot.account-identity-proof.v2"
    /// The signing event's content.
    public static let statement = "Authorize this MLS leaf key for my Marmot account"
    /// The legacy (MDK 0.9.0–0.9.4) proof carrier, a LeafNode extension; a leaf that has it is
    /// refused in a current-profile group (MDK v0.9.14 `account_identity_proof.rs:340`).
    public static let legacyExtensionType: UInt16 = 0xf2f1
    /// The largest `created_at`: NIP-01 times are JSON numbers, exact up to 2^53 − 1.
    public static let maxCreatedAt: UInt64 = (1 << 53) - 1

    public let signer: [UInt8]
    public let createdAt: UInt64
    public let signature: [UInt8]

    public init(signer: [UInt8], createdAt: UInt64, signature: [UInt8]) {
        self.signer = signer
        self.createdAt = createdAt
        self.signature = signature
    }

    /// The 104 component bytes.
    public var encoded: [UInt8] {
        var w = TLSWriter(capacity: Self.byteCount)
        w.writeBytes(signer)
        w.writeUInt64(createdAt)
        w.writeBytes(signature)
        return w.bytes
    }

    /// Reads exactly 104 bytes.
    public init(decoding bytes: [UInt8]) throws {
        guard bytes.count == Self.byteCount else {
            throw MLSError(.invalidIdentityProof, "account identity proof is \(bytes.count) bytes, not \(Self.byteCount)")
        }
        var r = TLSReader(bytes)
        signer = try r.readBytes(32)
        createdAt = try r.readUInt64()
        signature = try r.readBytes(64)
    }

    /// The tags of the signing event, in their required order.
    public static func signingTags(cipherSuite: UInt16, signatureScheme: UInt16, signatureKey: [UInt8]) -> [[String]] {
        [["d", domain], ["component", ComponentID.hex(componentID)], ["ciphersuite", ComponentID.hex(cipherSuite)],
         ["signature_scheme", ComponentID.hex(signatureScheme)], ["mls_signature_key", Hex.encode(signatureKey)]]
    }

    /// The NIP-01 id the account signs.
    public static func signingEventID(signer: [UInt8], createdAt: UInt64, cipherSuite: UInt16, signatureScheme: UInt16,
                                      signatureKey: [UInt8]) -> [UInt8] {
        NostrEvent.computeId(pubkey: Hex.encode(signer), createdAt: Int64(createdAt), kind: signingKind,
                             tags: signingTags(cipherSuite: cipherSuite, signatureScheme: signatureScheme, signatureKey: signatureKey),
                             content: statement)
    }

    /// A proof that `account` authorizes `signatureKey` in `suite`. `auxiliaryRandomness` is
    /// BIP-340's aux_rand (for test vectors); otherwise it is drawn from `rng`.
    package static func make(account: Secp256k1.PrivateKey, signatureKey: [UInt8], cipherSuite: CipherSuite = .x25519Aes128GcmSha256Ed25519,
                            createdAt: UInt64, auxiliaryRandomness: [UInt8]? = nil,
                            rng: RandomSource = SystemRandom()) throws -> AccountIdentityProof {
        guard (1...maxCreatedAt).contains(createdAt) else {
            throw MLSError(.invalidValue, "proof created_at \(createdAt) is outside 1...2^53-1")
        }
        let signer = account.publicKey.rawRepresentation
        let id = signingEventID(signer: signer, createdAt: createdAt, cipherSuite: cipherSuite.rawValue,
                                signatureScheme: cipherSuite.signatureScheme, signatureKey: signatureKey)
        let signature = try account.schnorrSignature(for: id, auxiliaryRandomness: auxiliaryRandomness, using: rng)
        return AccountIdentityProof(signer: signer, createdAt: createdAt, signature: signature)
    }

    /// Checks the proof for a leaf of `identity` with `signatureKey` in `suite`: the signer is
    /// the identity (a valid x-only key), `created_at` in range, and the signature verifies.
    package func verify(identity: [UInt8], signatureKey: [UInt8], cipherSuite: CipherSuite) throws {
        guard signer == identity else {
            throw MLSError(.invalidIdentityProof, "proof signer is not the leaf's credential identity")
        }
        guard (1...Self.maxCreatedAt).contains(createdAt) else {
            throw MLSError(.invalidIdentityProof, "proof created_at \(createdAt) is outside 1...2^53-1")
        }
        let key: Secp256k1.XOnlyPublicKey
        do { key = try Secp256k1.XOnlyPublicKey(rawRepresentation: signer) } catch {
            throw MLSError(.invalidIdentityProof, "proof signer is not a secp256k1 x-only key")
        }
        let id = Self.signingEventID(signer: signer, createdAt: createdAt, cipherSuite: cipherSuite.rawValue,
                                     signatureScheme: cipherSuite.signatureScheme, signatureKey: signatureKey)
        guard key.isValidSchnorrSignature(signature, for: id) else {
            throw MLSError(.invalidIdentityProof, "proof signature does not verify for this leaf key")
        }
    }
}
