/// A stable, machine-readable failure reason: a snake_case raw value that is safe to log, match
/// on and show in `--json` output. Each module lists its codes in one enum conforming to this.
public protocol FailureCode: RawRepresentable, Hashable, Sendable, CaseIterable where RawValue == String {}
