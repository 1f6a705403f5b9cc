extension SignedInvite {
    /// The slug: serialized, compressed when smaller, base64url with `*` every 300 characters.
    public func encodedSlug(compress: Bool = true) -> String {
        let wire = serializedBytes()
        return InviteSlug.encode(compress ? InviteCompression.compressIfSmaller(wire) : wire)
    }

    /// Parses a slug (not a URL; see ``InviteLink``). Structural only: call
    /// ``verify(expectedCreator:)`` before trusting anything in it.
    public init(slug: String) throws(InviteError) {
        let wire = try InviteCompression.decompress(try InviteSlug.decode(slug))
        try self.init(serializedBytes: wire)
    }
}
