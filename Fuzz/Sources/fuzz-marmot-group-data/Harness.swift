import EngineFixture
import FuzzSupport
import InviteKitCrypto
@testable import InviteKitMLS

// The Marmot group data extension 0xF2EE (MIP-01) as MarmotGroupData reads it. Modes (first
// byte % 2):
//  0 the rest is the extension data.
//  1 the rest is a GroupContext extension list; MarmotGroupData(extensions:) must agree with
//    reading the single 0xF2EE entry directly.
// Invariants: what parses validates; encoding is a fixed point (decode ∘ encode = identity, the
// same bytes twice); the input's bytes come back exactly when admins and relays were already in
// the encoder's sorted order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let (mode, rest) = FuzzInput(data, size).mode(of: 2)
    if mode == 1 {
        var reader = TLSReader(rest)
        guard let list = try? reader.readVector({ r in try MLSExtension(from: &r) }), reader.isAtEnd else { return 0 }
        let found = list.filter { $0.extensionType == MarmotProfile.groupDataExtensionType }
        let viaList = try? MarmotGroupData(extensions: list)
        switch try? MarmotWireProfile.of(groupContextExtensions: list) {
        case .mip?:
            invariant((viaList != nil) == (found.count == 1 && (try? MarmotGroupData(tlsSerialized: found[0].data)) != nil),
                      "MarmotGroupData(extensions:) disagrees with the direct reader")
        case .current?:
            // A current-profile GroupContext: what reads is current, and writes back to the same dictionary.
            if let d = viaList {
                invariant(d.profile == .current, "a current-profile GroupContext read as another profile")
                invariant((try? d.appDataDictionary()) == (try? AppDataDictionary(extensions: list)) ?? nil,
                          "a current-profile GroupContext does not re-encode to its dictionary")
            }
        case nil:
            invariant(viaList == nil, "group data read from a GroupContext of no profile")
        }
        return 0
    }
    guard let d = try? MarmotGroupData(tlsSerialized: rest) else { return 0 }
    invariant(!throwsError { try d.validate() }, "parsed group data does not validate")
    let encoded = d.tlsSerialized
    guard let again = try? MarmotGroupData(tlsSerialized: encoded) else { fatalError("INVARIANT BROKEN: re-encoded group data does not parse") }
    invariant(again.tlsSerialized == encoded, "encoding is not a fixed point")
    invariant(Set(again.admins) == Set(d.admins) && Set(again.relays) == Set(d.relays), "admins or relays changed")
    invariant(again.version == d.version && again.nostrGroupID == d.nostrGroupID && again.name == d.name
              && again.description == d.description && again.imageHash == d.imageHash && again.imageNonce == d.imageNonce,
              "a field changed in the round trip")
    let sortedAdmins = d.admins == d.admins.sorted { $0.lexicographicallyPrecedes($1) }
    let sortedRelays = d.relays == d.relays.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    if sortedAdmins && sortedRelays { invariant(encoded == rest, "sorted group data is not re-encoded exactly") }
    _ = try? d.groupContextExtension()
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    emitSeedsIfAsked {
        let exts = EngineFixture.group.bob.state.groupContext.extensions
        let ours = exts.first { $0.extensionType == MarmotProfile.groupDataExtensionType }!.data
        var w = TLSWriter()
        w.writeVector { v in for e in exts { e.encode(to: &v) } }
        // A current-profile GroupContext (PROTOCOL §5.12.4) as a seed too.
        let key = try! Secp256k1.PrivateKey(rawRepresentation: [UInt8](repeating: 3, count: 32))
        let (_, bundle) = try! KeyPackageEvent.create(nostrKey: key, relays: [], lastResort: false, now: 1_800_000_000)
        let current = try! MarmotGroup<MLSGroupState>.create(creator: bundle, name: "fuzz", relays: ["wss://relay.example"])
        var c = TLSWriter()
        c.writeVector { v in for e in current.state.groupContextExtensions { e.encode(to: &v) } }
        return [("fixture-group-data", [0] + ours), ("fixture-extensions", [1] + w.bytes), ("fixture-current-extensions", [1] + c.bytes)]
    }
    return 0
}
