import InviteKit

/// Every vector suite the CLI knows, layer by layer.
enum VectorSuiteRegistry {
    static func run(directory: String) -> [VectorSuiteResult] {
        NostrVectorSuites.run(directory: directory)
            + InviteVectorSuites.results(directory: directory)
            + MLSVectorSuites.run(directory: directory)
            + ContentVectorSuites.run(directory: directory)
    }
}
