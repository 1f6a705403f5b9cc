/// `marmot.group.lifecycle.v1`, component `0x800c` (`app-components/group-lifecycle-v1.md`; MDK
/// v0.9.14 `crates/traits/src/app_components/lifecycle.rs:14`): one byte, `0` active, `1`
/// disbanded. New groups start active.
public enum GroupLifecycleV1: UInt8, Hashable, Sendable {
    case active = 0
    case disbanded = 1

    public var encoded: [UInt8] { [rawValue] }

    public init(decoding bytes: [UInt8]) throws {
        guard bytes.count == 1, let v = GroupLifecycleV1(rawValue: bytes[0]) else {
            throw MLSError(.invalidComponent, "group lifecycle must be one byte, 0 or 1")
        }
        self = v
    }
}
