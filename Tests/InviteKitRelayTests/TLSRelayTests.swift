import Foundation
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitRelay
import NIOSSL
import XCTest
import InviteKitTestSupport

/// `wss://` through swift-nio-ssl, against a local TLS relay with a throwaway self-signed certificate.
final class TLSRelayTests: XCTestCase {
    var relay: ScriptedRelay?
    var dir: TemporaryDirectory?
    var clients: [WebSocketRelayClient] = []

    override func tearDown() async throws {
        for c in clients { await c.close() }
        relay?.stop()
        dir = nil
    }

    func testWSSWithTrustedCertificateAndRefusalOfUntrusted() async throws {
        try RelayProcess.requireRelay()
        let dir = TemporaryDirectory(prefix: "invitekit-tls")
        self.dir = dir
        let cert = dir.file("cert.pem"), key = dir.file("key.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                             "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        RelayProcess.waitForExit(openssl, timeout: 30)
        guard openssl.terminationStatus == 0 else { throw XCTSkip("openssl could not make a test certificate") }

        let r = try ScriptedRelay(mode: "tls", extra: "{\"cert\":\(String(reflecting: cert)),\"key\":\(String(reflecting: key))}")
        relay = r
        XCTAssertTrue(r.url.hasPrefix("wss://localhost:"))

        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(cert))
        let c = WebSocketRelayClient(url: r.url, configuration: RelayClientConfiguration(tlsConfiguration: tls))
        clients.append(c)
        let me = Secp256k1.PrivateKey()
        await assertAccepted(c, TestEvents.note(me, "over TLS"))
        let sub = try await c.subscribe([NostrFilter(kinds: [1])])
        var first: SubscriptionItem?
        for await item in sub.items { first = item; break }
        XCTAssertEqual(first, .eose)

        // Default trust roots: the self-signed certificate is refused, as a typed connection failure.
        let strict = WebSocketRelayClient(url: r.url, configuration: RelayClientConfiguration(reconnect: ReconnectPolicy(maxAttempts: 0)))
        clients.append(strict)
        do {
            try await strict.connect()
            XCTFail("an untrusted certificate was accepted")
        } catch { XCTAssertEqual(error.code, .connectionFailed) }
        let refused = await strict.publish(TestEvents.note(me, "x"), timeout: .seconds(3))
        XCTAssertFalse(refused.isAccepted)
    }
}
