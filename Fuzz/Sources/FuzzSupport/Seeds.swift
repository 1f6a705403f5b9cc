#if canImport(Glibc)
import Glibc
#endif

/// Targets whose useful inputs cannot be cut from vectors/ (MLS objects made by a fixture,
/// framed harness modes) write their seeds when the environment asks:
/// `INVITEKIT_FUZZ_EMIT_SEEDS=<dir> <target> -runs=0` (scripts/fuzz/run.sh does this).
/// The process exits once the seeds are written.
public func emitSeedsIfAsked(_ seeds: () -> [(name: String, bytes: [UInt8])]) {
    guard let raw = getenv("INVITEKIT_FUZZ_EMIT_SEEDS") else { return }
    let dir = String(cString: raw)
    for seed in seeds() {
        let path = dir + "/" + seed.name
        guard let f = fopen(path, "wb") else { fatalError("cannot write \(path)") }
        _ = seed.bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
        fclose(f)
    }
    exit(0)
}
