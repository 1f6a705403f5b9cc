import Foundation
import InviteKitNostr

/// Nostr events cross the worker boundary as JSON objects.
extension NostrEvent {
    var jsonObject: [String: Any] {
        // jsonBytes is canonical JSON written by InviteKit: it always parses.
        try! JSONSerialization.jsonObject(with: Data(jsonBytes)) as! [String: Any]
    }

    init(jsonObject: Any?, requireSignature: Bool = true) throws {
        guard let object = jsonObject as? [String: Any] else {
            throw MDKWorkerFailure(kind: .protocolError, command: "decode", message: "expected an event object, got \(String(describing: jsonObject))")
        }
        try self.init(json: [UInt8](try JSONSerialization.data(withJSONObject: object)), requireSignature: requireSignature)
    }
}
