import InviteKitCrypto

/// A KeyPackage together with its private halves: the HPKE init key, the leaf encryption key and
/// the leaf signature key. The private keys live in ``SecureBytes``.
public struct KeyPackageBundle: Sendable {
    public let keyPackage: KeyPackage
    public let initPrivateKey: X25519.PrivateKey
    public let encryptionPrivateKey: X25519.PrivateKey
    public let signaturePrivateKey: Ed25519.PrivateKey

    package init(keyPackage: KeyPackage, initPrivateKey: X25519.PrivateKey, encryptionPrivateKey: X25519.PrivateKey,
                signaturePrivateKey: Ed25519.PrivateKey) {
        self.keyPackage = keyPackage
        self.initPrivateKey = initPrivateKey
        self.encryptionPrivateKey = encryptionPrivateKey
        self.signaturePrivateKey = signaturePrivateKey
    }

    /// The KeyPackageRef.
    public var reference: [UInt8] { keyPackage.reference }

    /// Creates a signed KeyPackage for suite 0x0001 whose BasicCredential identity is the 32-byte
    /// Nostr x-only public key (Marmot). `lastResort` adds the `last_resort` extension (RFC 9420 §17.3).
    package static func create(identity: [UInt8], lifetime: Lifetime, lastResort: Bool,
                              cipherSuite: CipherSuite = .x25519Aes128GcmSha256Ed25519,
                              capabilities: Capabilities = .marmot,
                              rng: RandomSource = SystemRandom()) throws -> KeyPackageBundle {
        try create(identity: identity, lifetime: lifetime, lastResort: lastResort, cipherSuite: cipherSuite, capabilities: capabilities,
                   leafExtensions: { _ in [] }, rng: rng)
    }

    /// A current-profile KeyPackage of `account` (PROTOCOL §5.12.3; MDK v0.9.14
    /// `crates/cgka-engine/src/key_package.rs:240-260`, `app_components.rs:60`): the leaf's
    /// `app_data_dictionary` lists the supported components (``ComponentID/currentProfileSupported``)
    /// under `0x0001`, an empty `safe_aad` list under `0x0002`, and the account identity proof
    /// under `0x8009`, made at `now`; last resort is the empty component `0x0004` in the
    /// KeyPackage's own dictionary.
    package static func createCurrent(account: Secp256k1.PrivateKey, lifetime: Lifetime, lastResort: Bool, now: UInt64,
                                     rng: RandomSource = SystemRandom()) throws -> KeyPackageBundle {
        let suite = CipherSuite.x25519Aes128GcmSha256Ed25519
        return try create(identity: account.publicKey.rawRepresentation, lifetime: lifetime, lastResort: false, cipherSuite: suite,
                                capabilities: .marmotCurrent, leafExtensions: { signatureKey in
            let proof = try AccountIdentityProof.make(account: account, signatureKey: signatureKey, cipherSuite: suite,
                                                      createdAt: max(now, 1), rng: rng)
            let d = try AppDataDictionary([
                .init(id: ComponentID.appComponents, data: ComponentsList(ComponentID.currentProfileSupported).encoded),
                .init(id: ComponentID.safeAAD, data: ComponentsList([]).encoded),
                .init(id: ComponentID.accountIdentityProof, data: proof.encoded),
            ])
            return [d.extension]
        }, keyPackageExtensions: lastResort ? [try AppDataDictionary([.init(id: ComponentID.lastResortKeyPackage, data: [])]).extension] : [],
           rng: rng)
    }

    /// The one KeyPackage builder: `leafExtensions` gets the new leaf signature key (a proof
    /// signs it); `keyPackageExtensions` replaces the MIP `last_resort` extension when given.
    private static func create(identity: [UInt8], lifetime: Lifetime, lastResort: Bool, cipherSuite: CipherSuite,
                               capabilities: Capabilities, leafExtensions: ([UInt8]) throws -> [MLSExtension],
                               keyPackageExtensions: [MLSExtension]? = nil, rng: RandomSource) throws -> KeyPackageBundle {
        guard cipherSuite.isSupported else { throw MLSError(.unsupportedCipherSuite, cipherSuite.description) }
        guard identity.count == 32 else { throw MLSError(.invalidKey, "identity must be a 32-byte Nostr public key") }
        var caps = capabilities
        if !caps.cipherSuites.contains(cipherSuite.rawValue) { caps.cipherSuites.append(cipherSuite.rawValue) }
        let initKey = X25519.PrivateKey(using: rng)
        let encKey = X25519.PrivateKey(using: rng)
        let sigKey = Ed25519.PrivateKey(using: rng)
        var leaf = LeafNode(encryptionKey: encKey.publicKey, signatureKey: sigKey.publicKey,
                            credential: .basic(identity: identity), capabilities: caps,
                            source: .keyPackage(lifetime), extensions: try leafExtensions(sigKey.publicKey), signature: [])
        leaf.signature = MLSCrypto.signWithLabel(sigKey, label: "LeafNodeTBS", content: leaf.tbs)
        var kp = KeyPackage(version: .mls10, cipherSuite: cipherSuite, initKey: initKey.publicKey, leafNode: leaf,
                            extensions: keyPackageExtensions ?? (lastResort ? [.lastResort] : []), signature: [])
        kp.signature = MLSCrypto.signWithLabel(sigKey, label: "KeyPackageTBS", content: kp.tbs)
        return KeyPackageBundle(keyPackage: kp, initPrivateKey: initKey, encryptionPrivateKey: encKey, signaturePrivateKey: sigKey)
    }

    static let privateEnvelope = VersionedEnvelope("key store entry", version: 1)

    /// Private serialization for the store: `uint8 format = 1; opaque key_package<V>;
    /// opaque init_sk<V>; opaque encryption_sk<V>; opaque signature_seed<V>;`. Returned in
    /// ``SecureBytes`` because it holds private keys.
    public func privateSerialization() -> SecureBytes {
        Self.privateEnvelope.seal(capacity: 512) { w in
            w.writeOpaque(keyPackage.tlsSerialized)
            initPrivateKey.rawRepresentation.withUnsafeBytes { w.writeOpaque($0) }
            encryptionPrivateKey.rawRepresentation.withUnsafeBytes { w.writeOpaque($0) }
            signaturePrivateKey.rawRepresentation.withUnsafeBytes { w.writeOpaque($0) }
        }
    }

    /// Reads ``privateSerialization()`` back.
    public init(privateSerialization data: SecureBytes) throws {
        let parsed: (KeyPackage, X25519.PrivateKey, X25519.PrivateKey, Ed25519.PrivateKey) = try Self.privateEnvelope.open(data) { _, r in
            let kp = try KeyPackage(tlsSerialized: try r.readOpaque())
            var a = try r.readOpaque(), b = try r.readOpaque(), c = try r.readOpaque()
            defer { zeroize(&a); zeroize(&b); zeroize(&c) }
            do {
                return (kp, try X25519.PrivateKey(rawRepresentation: a), try X25519.PrivateKey(rawRepresentation: b),
                        try Ed25519.PrivateKey(rawRepresentation: c))
            } catch {
                throw MLSError(.invalidKey, "stored private key rejected")
            }
        }
        let (kp, initKey, encKey, sigKey) = parsed
        guard initKey.publicKey == kp.initKey, encKey.publicKey == kp.leafNode.encryptionKey,
              sigKey.publicKey == kp.leafNode.signatureKey else {
            throw MLSError(.invalidKey, "stored private keys do not match the KeyPackage")
        }
        self.init(keyPackage: kp, initPrivateKey: initKey, encryptionPrivateKey: encKey, signaturePrivateKey: sigKey)
    }
}
