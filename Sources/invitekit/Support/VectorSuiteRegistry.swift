import InviteKit
import InviteKitVectors

/// Every vector suite the CLI knows, layer by layer.
enum VectorSuiteRegistry {
    static func run(directory: String) -> [VectorSuiteResult] {
        NostrVectorSuites.run(directory: directory)
            + InviteVectorSuites.run(directory: directory)
            + MLSVectorSuites.results(directory: directory)
            + ContentVectorSuites.run(directory: directory)
    }
}
