import Foundation
import InviteKitMLS

/// The one parser for every numeric command-line option (docs/cli.md §3): a value outside its
/// declared bounds, NaN, ±inf, or one whose conversion (to nanoseconds, to `Int`) would trap, is a
/// usage error (exit 64) naming the bounds, never a crash. Options declare
/// `transform: NumericOption.seconds(...)` or `NumericOption.integer(...)`.
enum NumericOption {
    /// A duration in seconds within `range` (finite; negative only if the range allows it).
    static func seconds(_ range: ClosedRange<Double>) -> @Sendable (String) throws -> Double {
        precondition(range.lowerBound.isFinite && range.upperBound.isFinite && range.upperBound <= maxSeconds)
        return { text in
            // Decimal only: Double("0x1p4") and Double("nan") parse, neither is a duration.
            let text = text.trimmingCharacters(in: .whitespaces)
            guard text.utf8.allSatisfy({ decimal.contains($0) }), let value = Double(text), value.isFinite else {
                throw CLIFailure("not a finite number of seconds (\(describe(range)))", exitCode: 64)
            }
            guard range.contains(value) else { throw CLIFailure("seconds must be within \(describe(range))", exitCode: 64) }
            return value
        }
    }

    /// An integer within `range`. Fractions, exponents and values that do not fit `T` are refused.
    static func integer<T: FixedWidthInteger & Sendable>(_ range: ClosedRange<T>) -> @Sendable (String) throws -> T {
        { text in
            guard let value = T(text.trimmingCharacters(in: .whitespaces), radix: 10) else {
                throw CLIFailure("not an integer within \(range.lowerBound)...\(range.upperBound)", exitCode: 64)
            }
            guard range.contains(value) else { throw CLIFailure("must be within \(range.lowerBound)...\(range.upperBound)", exitCode: 64) }
            return value
        }
    }

    /// The largest duration any option may declare: ten years, far below where
    /// `Duration`/nanosecond and `Int(seconds * 1000)` conversions overflow.
    static let maxSeconds: Double = 315_360_000

    private static let decimal = Set("0123456789.eE+-".utf8)

    /// Bounds shared by several commands.
    static let timeout: ClosedRange<Double> = 0.001...86_400
    /// `--max-event-bytes` (PROTOCOL §5.11): from the smallest budget a Welcome fits in to 16 MiB.
    static let maxEventBytes: ClosedRange<Int> = EventBudget.minimumMaxEventBytes...16_777_216
    static let pollInterval: ClosedRange<Double> = 0.01...3600
    /// Lifetimes (invites, KeyPackages, skews) in seconds: up to ten years.
    static let maxLifetime: Int64 = 315_360_000
    /// Unix seconds from 1970 to the end of year 9999.
    static let unixTime: ClosedRange<Int64> = 0...253_402_300_799

    private static func describe(_ range: ClosedRange<Double>) -> String {
        func f(_ x: Double) -> String { x == x.rounded() ? String(Int64(x)) : String(x) }
        return "\(f(range.lowerBound))...\(f(range.upperBound))"
    }
}
