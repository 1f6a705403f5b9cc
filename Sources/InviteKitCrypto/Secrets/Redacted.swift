/// Secret-bearing types print as `TypeName(<redacted>)` and reflect no children, so
/// `print`, string interpolation, `dump` and debuggers never show key material.
public protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension RedactedDescription {
    public var description: String { "\(Self.self)(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension SecureBytes: RedactedDescription {}
extension HMACSHA256: RedactedDescription {}
extension SHA256: RedactedDescription {}
extension Secp256k1.PrivateKey: RedactedDescription {}
extension X25519.PrivateKey: RedactedDescription {}
extension Ed25519.PrivateKey: RedactedDescription {}
