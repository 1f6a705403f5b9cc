import XCTest
import Foundation
import InviteKitCrypto
import InviteKitNostr
@testable import InviteKitMLS
import InviteKitTestSupport

/// `vectors/marmot/current/events.json`: a current-profile KeyPackage event, the Welcome rumor of
/// the commit that adds it, and a kind-445 event of that group in both the current and the MIP
/// form, made with a fixed seed. The file must be what this code makes today, byte for byte, so
/// a change to any of the three shapes shows up here; `INVITEKIT_WRITE_VECTORS=1` rewrites it.
final class MarmotCurrentVectorFileTests: XCTestCase {
    static let now: Int64 = 1_800_000_000

    static func value(_ e: NostrEvent) throws -> JSONValue {
        try JSONParser.parse(Array(e.jsonString.utf8), maxBytes: 1 << 20, maxDepth: 16)
    }

    static func make() throws -> [String: JSONValue] {
        let rng = SeededRandom(seed: 2027)
        let ada = try Secp256k1.PrivateKey(rawRepresentation: rng.bytes(32))
        let bob = try Secp256k1.PrivateKey(rawRepresentation: rng.bytes(32))
        let relays = ["wss://relay.invitekit.example"]
        let (_, adaBundle) = try KeyPackageEvent.create(nostrKey: ada, relays: [], lastResort: false, now: now, rng: rng)
        let (bobEvent, _) = try KeyPackageEvent.create(nostrKey: bob, relays: [], lastResort: true, now: now, rng: rng)
        var group = try MarmotGroup<MLSGroupState>.create(creator: adaBundle, name: "vectors", relays: relays, rng: rng)
        let pending = try group.commit(adding: [try KeyPackageValidator.validate(bobEvent, now: now)], now: now, rng: rng)
        let rumors = try group.confirmPublished(pending, acknowledgedBy: relays, now: now)
        let message = try group.message(EventTemplate(kind: MarmotProfile.chatMessageKind, content: "hello"), now: now, rng: rng)
        let key = group.state.exporter(label: MarmotProfile.groupEventExporterLabel, context: MarmotProfile.groupEventExporterContext,
                                       length: MarmotProfile.groupEventKeyLength)
        let sealed = try group.state.sealApplication([1, 2, 3], rng: rng)
        let mipForm = try MarmotGroupEvent.make(mlsMessage: sealed, nostrGroupID: group.nostrGroupID, key: key, profile: .mip, createdAt: now, rng: rng)
        return ["now": .number(String(now)), "keypackage_event": try value(bobEvent), "welcome_rumor": try value(rumors[0]),
                "group_event": try value(message), "group_event_mip_form": try value(mipForm)]
    }

    func testTheEventsFileIsWhatThisCodeMakes() throws {
        let made = JSONValue.object(try Self.make().sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) })
        let text = JSONWriter.serialize(made) + "\n"
        let url = VectorFiles.url("marmot/current/events.json")
        if ProcessInfo.processInfo.environment["INVITEKIT_WRITE_VECTORS"] == "1" {
            try Data(text.utf8).write(to: url)
        }
        let stored = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(stored, text, "events.json is stale: rerun with INVITEKIT_WRITE_VECTORS=1 and review the diff")
    }
}
