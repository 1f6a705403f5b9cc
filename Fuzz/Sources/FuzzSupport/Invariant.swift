#if canImport(Glibc)
import Glibc
#endif

/// Stops the process with a message when a decoder breaks one of its invariants. libFuzzer sees
/// the abort as a crash and saves the input that caused it.
public func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError("INVARIANT BROKEN: \(message())", file: file, line: line) }
}

/// `true` when `body` throws.
public func throwsError<T>(_ body: () throws -> T) -> Bool {
    do { _ = try body(); return false } catch { return true }
}
