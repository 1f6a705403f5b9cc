import EngineFixture
import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS

// `MLSMessage` (RFC 9420 §6) with every wire format: PublicMessage, PrivateMessage, Welcome,
// GroupInfo, KeyPackage. Whatever parses re-serializes byte for byte, at the MLSMessage level
// and at the level of the body (PublicMessage/PrivateMessage via the framing layer's own
// reader, MLSFramedMessage). The two readers agree on which framed messages exist.
let g = EngineFixture.group

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    let message = try? MLSMessage(tlsSerialized: bytes)
    if let message {
        invariant(message.tlsSerialized == bytes, "MLSMessage(\(message.wireFormat)) is not re-serialized exactly")
        switch message.body {
        case .publicMessage(let b):
            if let m = try? PublicMessage(tlsSerialized: b) { invariant(m.tlsSerialized == b, "PublicMessage is not re-serialized exactly") }
        case .privateMessage(let b):
            if let m = try? PrivateMessage(tlsSerialized: b) { invariant(m.tlsSerialized == b, "PrivateMessage is not re-serialized exactly") }
        case .welcome(let w):
            invariant(w.tlsSerialized == Array(bytes.dropFirst(4)), "Welcome is not re-serialized exactly")
        case .groupInfo(let gi):
            invariant(gi.tlsSerialized == Array(bytes.dropFirst(4)), "GroupInfo is not re-serialized exactly")
            _ = gi.tbs
        case .keyPackage(let kp):
            invariant(kp.tlsSerialized == Array(bytes.dropFirst(4)), "KeyPackage is not re-serialized exactly")
        }
    }
    if let framed = try? MLSFramedMessage(tlsSerialized: bytes, parser: .standard) {
        invariant(framed.tlsSerialized == bytes, "MLSFramedMessage is not re-serialized exactly")
        invariant(message?.wireFormat.rawValue == framed.wireFormat.rawValue, "MLSMessage refuses a framed message MLSFramedMessage reads")
    }
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    emitSeedsIfAsked {
        [("fixture-private-application", g.application), ("fixture-private-commit", g.commit),
         ("fixture-public-proposal", g.proposal), ("fixture-welcome", g.welcomeForCarol),
         ("fixture-keypackage", MLSMessage(keyPackage: g.carolBundle.keyPackage).tlsSerialized)]
    }
    return 0
}
