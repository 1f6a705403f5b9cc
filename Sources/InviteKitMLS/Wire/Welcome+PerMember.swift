/// Per-member Welcomes (PROTOCOL §5.11). `secrets` is not covered by the GroupInfo signature
/// (RFC 9420 §12.4.3.1: the signature is inside `encrypted_group_info`, and each
/// `EncryptedGroupSecrets` only binds `encrypted_group_info` as its HPKE context), so a Welcome
/// holding the same `encrypted_group_info` and a subset of `secrets` is a valid Welcome for the
/// members it keeps.
extension Welcome {
    /// This Welcome with only the entries for `references` (KeyPackageRefs), in their original
    /// order. Throws `not_found` when an entry is missing.
    package func restricted(to references: [[UInt8]]) throws -> Welcome {
        try restricted(toEach: [references])[0]
    }

    /// ``restricted(to:)`` for each list of `groups`, indexing `secrets` once (a large add makes
    /// one Welcome per added member).
    package func restricted(toEach groups: [[[UInt8]]]) throws -> [Welcome] {
        var position: [[UInt8]: Int] = [:]
        for (i, s) in secrets.enumerated() where position[s.newMember] == nil { position[s.newMember] = i }
        return try groups.map { references in
            var kept: [Int] = []
            for r in Set(references) {
                guard let i = position[r] else { throw MLSError(.notFound, "the Welcome has no entry for a requested KeyPackage") }
                kept.append(i)
            }
            return Welcome(cipherSuite: cipherSuite, secrets: kept.sorted().map { secrets[$0] }, encryptedGroupInfo: encryptedGroupInfo)
        }
    }

    /// Upper bound on one `EncryptedGroupSecrets` of suite 1 or 3: KeyPackageRef<V> (1 + 32),
    /// kem_output<V> (1 + 32), ciphertext<V> (2 + GroupSecrets of at most 68 bytes + 16).
    static let maxOneSecretBytes = 33 + 33 + 2 + 68 + 16

    /// Upper bound on the bytes of a one-member Welcome `MLSMessage` whose GroupInfo serializes
    /// to `groupInfoBytes`: version and wire_format (4), cipher_suite (2), secrets<V> (1 + one
    /// entry), encrypted_group_info<V> (4 + GroupInfo + 16-byte AEAD tag).
    static func oneMemberMessageBytes(groupInfoBytes: Int) -> Int {
        4 + 2 + 1 + maxOneSecretBytes + 4 + groupInfoBytes + 16
    }
}
