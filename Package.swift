// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "InviteKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "InviteKit", targets: ["InviteKit"]),
        // Each layer on its own, for tools (fuzzers) that should not link the relay stack.
        .library(name: "InviteKitCrypto", targets: ["InviteKitCrypto"]),
        .library(name: "InviteKitNostr", targets: ["InviteKitNostr"]),
        .library(name: "InviteKitInvites", targets: ["InviteKitInvites"]),
        .library(name: "InviteKitMLS", targets: ["InviteKitMLS"]),
        .executable(name: "invitekit", targets: ["invitekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/vapor/websocket-kit", from: "2.16.0"),
        // Imported by InviteKitRelay directly (event loops, TLS settings); websocket-kit needs them too.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.78.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.24.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // `make docs`: symbol graphs of the InviteKit target alone, then the toolchain's docc
        // (`swift package dump-symbol-graph` asks for every module, test modules included, and
        // fails on a clone whose tests were never built). A command plugin: nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C shims: system libraries, each behind a module map and one header.
        .systemLibrary(name: "CSecp256k1", path: "Sources/CSecp256k1"),
        .systemLibrary(name: "CSodium", path: "Sources/CSodium"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .systemLibrary(name: "CQREncode", path: "Sources/CQREncode"),

        // Layer 1: thin wrappers over the C libraries.
        .target(name: "InviteKitCrypto", dependencies: ["CSecp256k1", "CSodium", "COpenSSL"]),
        // Layer 2: Nostr (NIP-01, 19, 44, 59).
        .target(name: "InviteKitNostr", dependencies: ["InviteKitCrypto"]),
        // Layer 3: siblings that only see Nostr and crypto.
        .target(name: "InviteKitInvites", dependencies: ["InviteKitNostr", "InviteKitCrypto", "CZlib", "CQREncode"]),
        .target(name: "InviteKitMLS", dependencies: ["InviteKitNostr", "InviteKitCrypto"]),
        .target(name: "InviteKitRelay", dependencies: [
            "InviteKitNostr", "InviteKitCrypto", .product(name: "WebSocketKit", package: "websocket-kit"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // Layer 3: durable state in SQLite (through GRDB); group state is opaque bytes, so no MLS here.
        .target(name: "InviteKitStore", dependencies: ["InviteKitCrypto", .product(name: "GRDB", package: "GRDB.swift")]),
        // Killed by a fail point inside a transaction by the store's crash tests.
        .executableTarget(name: "invitekit-store-crash", dependencies: ["InviteKitStore"], path: "Tests/InviteKitStoreCrash"),
        // An app on InviteKit's public API only, killed and restarted by the node process tests.
        .executableTarget(name: "invitekit-node-app", dependencies: ["InviteKit"], path: "Tests/InviteKitNodeApp"),
        // Layer 4: content types, sealed kinds, join flow, the node; re-exports the layers below.
        .target(name: "InviteKit", dependencies: ["InviteKitInvites", "InviteKitMLS", "InviteKitRelay", "InviteKitNostr", "InviteKitCrypto", "InviteKitStore"]),
        // Not library: vector suite runners (one result type), the demo story, the benches.
        // Used by the CLI and the tests only; no product exports them.
        // MDK's portable conformance scenarios run against InviteKit's engine (PROTOCOL §5.13).
        .target(name: "InviteKitConformance", dependencies: ["InviteKit"], exclude: ["README.md"]),
        .target(name: "InviteKitVectors", dependencies: ["InviteKit", "InviteKitConformance"]),
        .target(name: "InviteKitDemo", dependencies: ["InviteKit"]),
        .target(name: "InviteKitRelayBench", dependencies: ["InviteKitRelay", "InviteKitNostr", "InviteKitCrypto"]),
        // `invitekit bench`: every layer's cases, the node's and the store's figures. It imports
        // the library targets; none of them imports it.
        .target(name: "InviteKitBench", dependencies: [
            "InviteKit", "InviteKitStore", "InviteKitMLS", "InviteKitNostr", "InviteKitCrypto",
            "CSecp256k1", "CSodium",  // the C floor calls the libraries directly
        ]),
        .executableTarget(
            name: "invitekit",
            dependencies: [
                "InviteKit", "InviteKitStore", "InviteKitVectors", "InviteKitConformance", "InviteKitDemo", "InviteKitRelayBench", "InviteKitBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Shared by the test targets: locating vectors/ and decoding their hex.
        .target(name: "InviteKitTestSupport", dependencies: ["InviteKitNostr", "InviteKitCrypto"], path: "Sources/InviteKitTestSupport"),
        .testTarget(name: "InviteKitCryptoTests", dependencies: ["InviteKitCrypto", "InviteKitTestSupport"]),
        .testTarget(name: "InviteKitNostrTests", dependencies: ["InviteKitNostr", "InviteKitTestSupport"]),
        .testTarget(name: "InviteKitInvitesTests", dependencies: ["InviteKitInvites", "InviteKitTestSupport"]),
        .testTarget(name: "InviteKitMLSTests", dependencies: ["InviteKitMLS", "InviteKitVectors", "InviteKitTestSupport"]),
        .testTarget(name: "InviteKitRelayTests", dependencies: ["InviteKitRelay", "InviteKitRelayBench", "InviteKitTestSupport"]),
        .testTarget(name: "InviteKitStoreTests", dependencies: ["InviteKitStore", "InviteKitTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "InviteKitTests", dependencies: ["InviteKit", "InviteKitDemo", "InviteKitTestSupport"]),
        .testTarget(name: "InviteKitVectorsTests", dependencies: ["InviteKitVectors", "InviteKitTestSupport"]),
        .testTarget(name: "InviteKitBenchTests", dependencies: ["InviteKitBench", "InviteKitMLS", "InviteKitCrypto"]),
        // Interop with MDK (Rust reference implementation) running in a chroot: `make interop`.
        .testTarget(name: "InviteKitInteropTests", dependencies: ["InviteKit", "InviteKitTestSupport"]),
        // Drives the built `invitekit` binary (build it first: `swift build --build-tests` does).
        .testTarget(name: "InviteKitCLITests", dependencies: ["InviteKitTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
