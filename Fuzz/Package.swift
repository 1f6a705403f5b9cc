// swift-tools-version:6.0
// libFuzzer harnesses for InviteKit's decoders (issue 6). Built only by scripts/fuzz/run.sh:
//   swift build --sanitize=address --sanitize=fuzzer -Xswiftc -sanitize=address,fuzzer (see run.sh)
// Each target is one executable whose entry point is LLVMFuzzerTestOneInput; libFuzzer supplies
// main(), so the harness sources are compiled with -parse-as-library.
import PackageDescription

// (target, root-package library products it needs, local support targets)
let targets: [(name: String, deps: [String], local: [String])] = [
    ("fuzz-event-json", ["InviteKitNostr"], []),
    ("fuzz-bech32", ["InviteKitNostr"], []),
    ("fuzz-nip44", ["InviteKitNostr"], []),
    ("fuzz-gift-wrap", ["InviteKitNostr"], []),
    ("fuzz-whistle-code", ["InviteKitInvites"], []),
    ("fuzz-approval-url", ["InviteKitInvites"], []),
    ("fuzz-signed-invite", ["InviteKitInvites"], []),
    ("fuzz-keypackage-tls", ["InviteKitMLS"], ["MLSFixture"]),
    ("fuzz-keypackage-event", ["InviteKitMLS"], ["MLSFixture"]),
    ("fuzz-encoded-content", [], ["InviteKitContentTypes"]),
    ("fuzz-invite-join-error", [], ["InviteKitContentTypes"]),
    // The RFC 9420 engine and its Marmot binding (issue 13).
    ("fuzz-ratchet-tree", ["InviteKitMLS"], ["EngineFixture"]),
    ("fuzz-mls-message", ["InviteKitMLS"], ["EngineFixture"]),
    ("fuzz-mls-private", ["InviteKitMLS"], ["EngineFixture"]),
    ("fuzz-mls-commit", ["InviteKitMLS"], ["EngineFixture"]),
    ("fuzz-marmot-group-data", ["InviteKitMLS"], ["EngineFixture"]),
    ("fuzz-group-event", ["InviteKitMLS", "InviteKitNostr"], ["EngineFixture"]),
    // Marmot private group invite links v1: every record decoder, code text, preview AEAD (issue 29).
    ("fuzz-invite-link", ["InviteKitMLS", "InviteKitCrypto"], []),
    // The node's inbound path over a durable store (issue 20).
    ("fuzz-node-inbound", ["InviteKit"], []),
]

let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "InviteKitFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "InviteKit", path: "..")],
    targets: [
        // Shared helpers: failing loudly on a broken invariant, fixed keys, byte readers.
        .target(name: "FuzzSupport",
                dependencies: [.product(name: "InviteKitCrypto", package: "InviteKit"),
                               .product(name: "InviteKitNostr", package: "InviteKit")]),
        // Fixed KeyPackage material the KeyPackage harnesses attack.
        .target(name: "MLSFixture", dependencies: ["FuzzSupport", .product(name: "InviteKitMLS", package: "InviteKit")]),
        // The Marmot group over the RFC 9420 engine (Alice, Bob, Carol's Welcome) the engine
        // harnesses attack.
        .target(name: "EngineFixture", dependencies: ["FuzzSupport", .product(name: "InviteKitMLS", package: "InviteKit"),
                                                      .product(name: "InviteKitNostr", package: "InviteKit")]),
        // Sources/InviteKit/ContentTypes compiled on their own (Sources/InviteKitContentTypes is a
        // symlink to it): the InviteKit product would link InviteKitRelay and SwiftNIO, which
        // these decoders do not use.
        .target(name: "InviteKitContentTypes",
                dependencies: [.product(name: "InviteKitInvites", package: "InviteKit"),
                               .product(name: "InviteKitNostr", package: "InviteKit")]),
    ] + targets.map { t in
        .executableTarget(
            name: t.name,
            dependencies: ["FuzzSupport"] + t.local.map { .target(name: $0) }
                + t.deps.map { .product(name: $0, package: "InviteKit") },
            swiftSettings: harness)
    }
)
