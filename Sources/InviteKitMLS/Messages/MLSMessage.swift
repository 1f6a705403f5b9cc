/// `MLSMessage` (RFC 9420 §6) restricted to what this package carries on the wire:
/// `mls_key_package`. Other wire formats are rejected.
public struct MLSMessage: Hashable, Sendable, TLSCodable {
    /// `WireFormat` values (RFC 9420 §17.2).
    public enum WireFormat: UInt16, Sendable {
        case publicMessage = 1, privateMessage = 2, welcome = 3, groupInfo = 4, keyPackage = 5
    }

    public var version: ProtocolVersion
    public var keyPackage: KeyPackage

    public init(keyPackage: KeyPackage, version: ProtocolVersion = .mls10) {
        self.version = version
        self.keyPackage = keyPackage
    }

    public init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        guard version == .mls10 else { throw MLSError(.invalidValue, "MLSMessage version \(version.rawValue)") }
        let wf = try reader.readUInt16()
        guard wf == WireFormat.keyPackage.rawValue else {
            throw MLSError(.invalidValue, "wire_format \(wf) is not mls_key_package")
        }
        keyPackage = try KeyPackage(from: &reader)
    }

    public func encode(to writer: inout TLSWriter) {
        version.encode(to: &writer)
        writer.writeUInt16(WireFormat.keyPackage.rawValue)
        keyPackage.encode(to: &writer)
    }
}
