import InviteKitCrypto

extension SignedInvite {
    /// Signs `payload` with recoverable ECDSA over SHA-256 of its serialized bytes.
    public static func sign(_ payload: InvitePayload, with key: Secp256k1.PrivateKey) throws(InviteError) -> SignedInvite {
        let bytes = payload.serializedBytes()
        let signature: [UInt8]
        do {
            signature = try key.recoverableSignature(digest32: SHA256.hash(bytes))
        } catch {
            throw InviteError(.invalidArgument, "signing failed")
        }
        return SignedInvite(verbatim: bytes, signature: signature, payload: payload)
    }

    init(verbatim bytes: [UInt8], signature: [UInt8], payload: InvitePayload) {
        self.payloadBytes = bytes
        self.signature = signature
        self.payload = payload
        self.unknownFields = []
    }

    /// The full public key recovered from the signature over SHA-256(``payloadBytes``).
    public func recoverSigner() throws(InviteError) -> Secp256k1.PublicKey {
        guard signature.count == Secp256k1.ECDSA.recoverableSignatureByteCount else {
            throw InviteError(.invalidSignature, "signature is \(signature.count) bytes")
        }
        do {
            return try Secp256k1.ECDSA.recoverPublicKey(signature: signature, digest32: SHA256.hash(payloadBytes))
        } catch {
            throw InviteError(.invalidSignature, (error as? CryptoError)?.code.rawValue ?? "recovery failed")
        }
    }

    /// Verifies the invite and returns the recovered signer (whose ``Secp256k1/PublicKey/xOnly``
    /// is the creator).
    ///
    /// The recovered key must equal ``InvitePayload/creatorInboxId`` (32-byte x-only). The
    /// comparison is on x only: the recovered point may have odd y, and since a secret key `d`
    /// and its negation share an x-only key, whoever can sign for one can sign for the other;
    /// parity carries no authority. With `expectedCreator`, the creator must also be that key.
    /// The bytes are compared directly, so no x-only key is parsed on this path.
    @discardableResult
    public func verify(expectedCreator: Secp256k1.XOnlyPublicKey? = nil) throws(InviteError) -> Secp256k1.PublicKey {
        let recovered = try recoverSigner()
        let x = recovered.compressed.dropFirst()
        guard payload.creatorInboxId.count == 32 else {
            throw InviteError(.invalidSignature, "creator_inbox_id is not a 32-byte key")
        }
        guard x.elementsEqual(payload.creatorInboxId) else {
            throw InviteError(.invalidSignature, "signer is not creator_inbox_id")
        }
        if let expectedCreator, !x.elementsEqual(expectedCreator.rawRepresentation) {
            throw InviteError(.creatorMismatch)
        }
        return recovered
    }
}

extension SignedInvite {
    /// Parses any accepted link form or slug, inflates, and verifies: the whole "decode +
    /// inflate + recover" path in one call (what `invitekit bench` times as verify).
    public static func decodeAndVerify(
        _ input: String, expectedCreator: Secp256k1.XOnlyPublicKey? = nil
    ) throws(InviteError) -> (invite: SignedInvite, signer: Secp256k1.PublicKey) {
        let invite = try SignedInvite(link: input)
        return (invite, try invite.verify(expectedCreator: expectedCreator))
    }
}
