/// A bench that could not measure what it names (a node that stopped, a row that did not
/// store): the CLI prints the description as its one error line and exits non-zero.
package struct BenchFailure: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) { self.description = description }
}
