/// An error with a stable code and a detail safe to show (no secret material). Every
/// ``CodedFailure`` conforms, and so does the application taxonomy, so tools report any error
/// the same way.
public protocol CodedError: Error {
    /// The stable snake_case code.
    var codeName: String { get }
    var detail: String { get }
}
