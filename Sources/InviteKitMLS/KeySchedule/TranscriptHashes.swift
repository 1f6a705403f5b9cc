import InviteKitCrypto

/// The confirmed and interim transcript hashes (RFC 9420 §8.2), with SHA-256.
package enum TranscriptHashes {
    /// `confirmed_transcript_hash_[n] = Hash(interim_transcript_hash_[n-1] || ConfirmedTranscriptHashInput)`
    /// where `ConfirmedTranscriptHashInput = { WireFormat wire_format; FramedContent content; opaque signature<V>; }`
    /// and `content` carries a commit.
    package static func confirmed(interimBefore: [UInt8], authenticatedContent: AuthenticatedContent) throws -> [UInt8] {
        guard authenticatedContent.content.contentType == .commit else {
            throw MLSError(.invalidValue, "transcript hashes cover commits only")
        }
        var w = TLSWriter(capacity: 256)
        w.writeBytes(interimBefore)
        authenticatedContent.wireFormat.encode(to: &w)
        authenticatedContent.content.encode(to: &w)
        w.writeOpaque(authenticatedContent.auth.signature)
        return SHA256.hash(w.bytes)
    }

    /// `interim_transcript_hash_[n] = Hash(confirmed_transcript_hash_[n] || InterimTranscriptHashInput)`
    /// where `InterimTranscriptHashInput = { MAC confirmation_tag; }` (RFC 9420 §8.2).
    package static func interim(confirmed: [UInt8], confirmationTag: [UInt8]) -> [UInt8] {
        var w = TLSWriter(capacity: 80)
        w.writeBytes(confirmed)
        w.writeOpaque(confirmationTag)
        return SHA256.hash(w.bytes)
    }
}
