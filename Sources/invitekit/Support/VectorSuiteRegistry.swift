import InviteKitNostr

/// Every vector suite the CLI knows, layer by layer.
enum VectorSuiteRegistry {
    static func run(directory: String) -> [VectorSuiteResult] {
        NostrVectorSuites.run(directory: directory)
    }
}
