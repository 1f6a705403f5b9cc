import Foundation
import InviteKitCrypto
import InviteKitNostr

extension GiftWrapCatchUp {
    /// ``GiftWrap/unwrapBatch(_:recipient:)`` split over `parallelism` tasks (each wrap costs two
    /// signature checks, two ECDHs and two NIP-44 decryptions, so a large catch-up is CPU-bound).
    /// Same result as one batch: successes in input order, every failure reported.
    public static func unwrap(_ wraps: [NostrEvent], recipient: Secp256k1.PrivateKey,
                              parallelism: Int = ProcessInfo.processInfo.activeProcessorCount) async -> BatchResult<UnwrappedGift, NostrEvent> {
        let lanes = max(1, min(parallelism, wraps.count / 64))
        guard lanes > 1 else { return GiftWrap.unwrapBatch(wraps, recipient: recipient) }
        let chunk = (wraps.count + lanes - 1) / lanes
        let parts = await withTaskGroup(of: (Int, BatchResult<UnwrappedGift, NostrEvent>).self) { group in
            for lane in 0..<lanes {
                let slice = Array(wraps[(lane * chunk)..<min(wraps.count, (lane + 1) * chunk)])
                group.addTask { (lane, GiftWrap.unwrapBatch(slice, recipient: recipient)) }
            }
            var out = [BatchResult<UnwrappedGift, NostrEvent>?](repeating: nil, count: lanes)
            for await (lane, part) in group { out[lane] = part }
            return out
        }
        var result = BatchResult<UnwrappedGift, NostrEvent>()
        for part in parts {
            result.succeeded.append(contentsOf: part!.succeeded)
            result.failed.append(contentsOf: part!.failed)
        }
        return result
    }
}
