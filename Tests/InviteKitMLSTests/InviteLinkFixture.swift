import Foundation
import InviteKitCrypto
import InviteKitMLS
import InviteKitTestSupport

/// The spec's invite-links v1 fixture and small builders for the InviteLink*Tests.
enum InviteLinkFixture {
    static let fields: [String: String] = {
        let o = (try? VectorFiles.json("marmot/invite-links/invite-links-v1.json")) as? [String: Any] ?? [:]
        return o.compactMapValues { $0 as? String }
    }()

    static func bytes(_ key: String) -> [UInt8] { hex(fields[key]!) }

    /// The x-only public key of private scalar `n` (1 is the generator, as in the fixture).
    static func xOnly(_ n: UInt8) -> [UInt8] { privateKey(n).publicKey.rawRepresentation }

    static func privateKey(_ n: UInt8) -> Secp256k1.PrivateKey {
        try! Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [n])
    }

    static func entry(id: UInt8, inbox: UInt8, mode: InviteLinkV1.ApprovalMode = .manual, expiresAt: UInt64 = 0) throws -> InviteLinkV1 {
        try InviteLinkV1(linkID: [UInt8](repeating: id, count: 32), inboxPublicKey: xOnly(inbox), bearerHash: [UInt8](repeating: 0xbb, count: 32),
                         previewHash: [UInt8](repeating: 0xcc, count: 32), expiresAt: expiresAt, approvalMode: mode)
    }

    /// Raw entry bytes with any field, valid or not.
    static func rawEntry(id: UInt8, inbox: [UInt8], expiresAt: UInt64 = 0, mode: UInt8 = 0) -> [UInt8] {
        var w = TLSWriter()
        w.writeBytes([UInt8](repeating: id, count: 32)); w.writeBytes(inbox)
        w.writeBytes([UInt8](repeating: 0xbb, count: 64)); w.writeUInt64(expiresAt); w.writeUInt8(mode)
        return w.bytes
    }

    /// Raw component bytes around `entries` with the shortest length.
    static func component(_ entries: [[UInt8]]) -> [UInt8] {
        var w = TLSWriter()
        w.writeOpaque(entries.flatMap { $0 })
        return w.bytes
    }

    /// Raw code bytes with the given relays (valid or not) and version.
    static func codeBytes(relays: [String], version: UInt16 = 1, inbox: [UInt8] = xOnly(1)) -> [UInt8] {
        var w = TLSWriter()
        w.writeUInt16(version); w.writeBytes(inbox); w.writeBytes([UInt8](repeating: 0x11, count: 32))
        w.writeBytes([UInt8](repeating: 0x22, count: 32)); w.writeBytes([UInt8](repeating: 0x33, count: 32))
        w.writeVector { inner in for r in relays { inner.writeOpaque(Array(r.utf8)) } }
        return w.bytes
    }

    static var code: InviteCodeV1 { try! InviteCodeV1(decoding: bytes("code_hex")) }
    static var request: InviteRequestV1 { try! InviteRequestV1(decoding: bytes("request_hex")) }
    static var consentKey: Ed25519.PrivateKey { try! Ed25519.PrivateKey(rawRepresentation: bytes("consent_seed_hex")) }
}
