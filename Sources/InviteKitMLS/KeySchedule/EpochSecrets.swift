import InviteKitCrypto

/// The secrets of one epoch, derived from `epoch_secret` (RFC 9420 §8, table in §8).
///
/// Every value is in ``SecureBytes``; the type is immutable, so copies share (and wipe) the same
/// storage.
package struct EpochSecrets: Sendable {
    /// `joiner_secret`: goes into the GroupSecrets of a Welcome (RFC 9420 §12.4.3.1).
    package let joinerSecret: SecureBytes
    /// `welcome_secret`: keys the encrypted GroupInfo of a Welcome (RFC 9420 §12.4.3.1).
    package let welcomeSecret: SecureBytes
    /// `sender_data_secret` (RFC 9420 §6.3.2).
    package let senderDataSecret: SecureBytes
    /// `encryption_secret`: the root of the secret tree (RFC 9420 §9).
    package let encryptionSecret: SecureBytes
    /// `exporter_secret` (RFC 9420 §8.5).
    package let exporterSecret: SecureBytes
    /// `external_secret` (RFC 9420 §8.3).
    package let externalSecret: SecureBytes
    /// `confirmation_key` (RFC 9420 §8.1).
    package let confirmationKey: SecureBytes
    /// `membership_key` (RFC 9420 §6.2).
    package let membershipKey: SecureBytes
    /// `resumption_psk` (RFC 9420 §8.6).
    package let resumptionPSK: SecureBytes
    /// `epoch_authenticator` (RFC 9420 §8.7).
    package let epochAuthenticator: SecureBytes
    /// `init_secret` for the next epoch.
    package let initSecret: SecureBytes

    init(joinerSecret: SecureBytes, welcomeSecret: SecureBytes, epochSecret: SecureBytes) {
        self.joinerSecret = joinerSecret
        self.welcomeSecret = welcomeSecret
        func derive(_ label: String) -> SecureBytes { MLSCrypto.deriveSecret(secret: epochSecret, label: label) }
        senderDataSecret = derive("sender data")
        encryptionSecret = derive("encryption")
        exporterSecret = derive("exporter")
        externalSecret = derive("external")
        confirmationKey = derive("confirm")
        membershipKey = derive("membership")
        resumptionPSK = derive("resumption")
        epochAuthenticator = derive("authentication")
        initSecret = derive("init")
    }
}
