/// A request the MDK worker could not serve, or a worker that stopped answering.
struct MDKWorkerFailure: Error, CustomStringConvertible {
    enum Kind: String { case refused, timeout, exited, protocolError = "protocol_error", unavailable }
    let kind: Kind
    /// The command that failed, or "start".
    let command: String
    /// MDK's (or the worker's) message; for `.refused`, MDK's own wording.
    let message: String
    /// The worker's error class, e.g. `MdkUniffiError.MDK`, when it reported one.
    var errorType: String? = nil

    var description: String { "mdk worker \(kind.rawValue) (\(command)): \(message)" + (errorType.map { " [\($0)]" } ?? "") }
}
