/// What one vector suite must have earned to pass: the files it reads (relative to the vectors
/// directory) and the fewest cases it must run. Each suite family declares its own, next to its
/// runner; `VectorSuiteRegistry` holds every result to them.
package struct VectorSuiteDeclaration: Sendable {
    package let suite: String
    package let files: [String]
    package let minimumCases: Int

    package init(suite: String, files: [String], minimumCases: Int) {
        self.suite = suite
        self.files = files
        self.minimumCases = minimumCases
    }
}
