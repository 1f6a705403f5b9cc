import Foundation
import XCTest
import InviteKitTestSupport

/// A deliberately scripted relay (Python `websockets`, from the same venv) for behaviour a
/// well-behaved relay never shows: NIP-42 `auth-required:` refusals, and hostile output (bad
/// signatures, events outside the filter, non-JSON). Launched like ``RelayProcess``.
final class ScriptedRelay: @unchecked Sendable {
    static let source = #"""
    import asyncio, json, sys
    from websockets.asyncio.server import serve

    mode = sys.argv[1]
    extra = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}

    async def handler(ws):
        authed = False
        if mode == "auth":
            await ws.send(json.dumps(["AUTH", "chal-1"]))
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg[0]
            if mode == "auth":
                if kind == "AUTH":
                    ev = msg[1]
                    tags = {t[0]: t[1] for t in ev["tags"]}
                    authed = ev["kind"] == 22242 and tags.get("challenge") == "chal-1"
                    await ws.send(json.dumps(["OK", ev["id"], authed, "" if authed else "invalid: bad auth"]))
                elif kind == "EVENT":
                    ev = msg[1]
                    if authed:
                        await ws.send(json.dumps(["OK", ev["id"], True, ""]))
                    else:
                        await ws.send(json.dumps(["OK", ev["id"], False, "auth-required: sign in first"]))
                elif kind == "REQ":
                    if authed:
                        await ws.send(json.dumps(["EOSE", msg[1]]))
                    else:
                        await ws.send(json.dumps(["CLOSED", msg[1], "auth-required: sign in first"]))
            elif mode == "tls":
                if kind == "EVENT":
                    await ws.send(json.dumps(["OK", msg[1]["id"], True, ""]))
                elif kind == "REQ":
                    await ws.send(json.dumps(["EOSE", msg[1]]))
            elif mode == "hostile":
                if kind == "REQ":
                    sub = msg[1]
                    await ws.send(json.dumps(["EVENT", sub, extra["badsig"]]))
                    await ws.send(json.dumps(["EVENT", sub, extra["offfilter"]]))
                    await ws.send("this is not json")
                    await ws.send(json.dumps(["EVENT", sub, {"id": "nope"}]))
                    await ws.send(json.dumps(["EVENT", sub, extra["good"]]))
                    await ws.send(json.dumps(["EVENT", sub, extra["good"]]))
                    await ws.send(json.dumps(["EVENT", "someone-elses-sub", extra["good"]]))
                    await ws.send(json.dumps(["NOTICE", "hello from a hostile relay"]))
                    await ws.send(json.dumps(["EOSE", sub]))
                    await ws.send(json.dumps(["CLOSED", sub, "error: going away"]))
                elif kind == "EVENT":
                    ev = msg[1]
                    await ws.send(json.dumps(["OK", "f" * 64, True, ""]))
                    await ws.send(json.dumps(["OK", ev["id"], False, "blocked: hostile relay"]))

    async def main():
        tls = None
        if mode == "tls":
            import ssl
            tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            tls.load_cert_chain(extra["cert"], extra["key"])
        async with serve(handler, "127.0.0.1", 0, ssl=tls) as server:
            port = server.sockets[0].getsockname()[1]
            print(f"READY ws://127.0.0.1:{port}", flush=True)
            await asyncio.Future()

    asyncio.run(main())
    """#

    private var process: Process?
    private(set) var url = ""

    init(mode: String, extra: String = "{}") throws {
        try RelayProcess.requireRelay()
        let p = Process()
        p.executableURL = RelayProcess.python
        p.arguments = ["-u", "-c", Self.source, mode, extra]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        let buffer = LockedData()
        let reader = out.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let d = reader.availableData
                if d.isEmpty { return }
                buffer.append(d)
            }
        }
        let ready = { buffer.firstLine().map { $0.hasPrefix("READY ") } ?? false }
        Poll.until(timeout: 20, every: 0.05) { ready() || !p.isRunning }
        if ready(), let line = buffer.firstLine() {
            url = String(line.dropFirst("READY ".count))
            if mode == "tls" { url = url.replacingOccurrences(of: "ws://127.0.0.1", with: "wss://localhost") }
            return
        }
        stop()
        throw RelayFixtureError(message: "scripted relay did not start")
    }

    func stop() {
        guard let p = process else { return }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        RelayProcess.waitForExit(p, timeout: 5)
        process = nil
    }

    deinit { stop() }
}
