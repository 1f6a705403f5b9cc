import Foundation

/// Lines read from a pipe by a background thread, so a reader can wait for the next one with a
/// deadline instead of blocking forever on a stuck worker.
final class LineQueue: @unchecked Sendable {
    private let handle: FileHandle
    private let condition = NSCondition()
    private var buffer = Data()
    private var ready: [Data] = []
    private var closed = false

    init(_ handle: FileHandle) { self.handle = handle }

    func start() {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                condition.lock()
                if chunk.isEmpty {
                    closed = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                buffer.append(chunk)
                while let nl = buffer.firstIndex(of: 0x0A) {
                    ready.append(Data(buffer[buffer.startIndex..<nl]))
                    buffer.removeSubrange(buffer.startIndex...nl)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        thread.start()
    }

    var isClosed: Bool { condition.lock(); defer { condition.unlock() }; return closed }

    /// The next complete line, or nil when the pipe closed or `timeout` passed first.
    func next(timeout: TimeInterval) -> Data? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty {
            if closed { return nil }
            if !condition.wait(until: deadline) { return ready.isEmpty ? nil : ready.removeFirst() }
        }
        return ready.removeFirst()
    }
}
