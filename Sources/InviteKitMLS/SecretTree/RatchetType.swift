/// Which of a leaf's two hash ratchets (RFC 9420 §9.1): handshake for proposals and commits,
/// application for application data.
package enum RatchetType: UInt8, Hashable, Sendable {
    case handshake = 0
    case application = 1

    /// The ratchet that protects `contentType` (RFC 9420 §9.1).
    package init(_ contentType: ContentType) { self = contentType == .application ? .application : .handshake }

    var label: String { self == .handshake ? "handshake" : "application" }
}
