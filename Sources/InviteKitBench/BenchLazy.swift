/// A fixture built on its first use, not when the case list is made: the runner's warm-up call
/// pays for it, and a `--filter` that skips every case using it never builds it. `make` may also
/// record the rows measured while building (sizes, event counts), once.
final class BenchLazy<Value>: @unchecked Sendable {
    // Safe: the bench runner calls one case at a time, from one task.
    private let make: () throws -> Value
    private var value: Value?

    init(_ make: @escaping () throws -> Value) { self.make = make }

    func get() throws -> Value {
        if let value { return value }
        let v = try make()
        value = v
        return v
    }
}
