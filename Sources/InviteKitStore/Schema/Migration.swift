/// One step of the schema. Applied once, in its own transaction, together with its row in
/// `schema_migrations` and the new `user_version`.
struct Migration: Sendable {
    let version: Int
    let name: String
    let statements: [String]
}
