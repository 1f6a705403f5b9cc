extension SignedInvite {
    /// `https://<domain>/v2?i=<slug>`.
    public func url(domain: String = InviteLink.defaultDomain, compress: Bool = true) throws(InviteError) -> String {
        try InviteLink.url(slug: encodedSlug(compress: compress), domain: domain)
    }

    /// Parses any accepted link form or a bare slug. Structural only; verify before use.
    public init(link: String) throws(InviteError) {
        try self.init(slug: try InviteLink.slug(from: link))
    }
}
